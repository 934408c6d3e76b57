import StockroomProtocol

/// A reply waiting for its commit, with everything answered after it, which must not overtake it.
package struct HeldReply {
  /// Whose reply it is, which decides what goes in its place when the commit fails.
  package enum Kind: Sendable {
    /// The change's own reply: the change was not made.
    case change
    /// A read's, held because it saw the change being committed: it is not answered.
    case read
  }

  package let ticket: CommitTicket
  package let kind: Kind
  package var reply: [UInt8]
  /// Replies and events that came after it, in the order they were made.
  package var after: [UInt8] = []

  /// What is sent in the reply's place when its commit failed.
  package func failed(_ failure: CommitFailure) -> ProtocolError {
    switch kind {
    case .change: failure.reply
    case .read: failure.readReply
    }
  }
}

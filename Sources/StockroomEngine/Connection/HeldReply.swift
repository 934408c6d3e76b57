import StockroomProtocol

/// A reply waiting for its commit, or for the writer to apply its change, with everything
/// answered after it, which must not overtake it.
package struct HeldReply {
  /// Whose reply it is, which decides what goes in its place when the commit fails.
  package enum Kind: Sendable {
    /// The change's own reply: the change was not made.
    case change
    /// A read's, held because it saw the change being committed: it is not answered.
    case read
  }

  /// The commit it waits for; nil when it waits for none (a refused change's error).
  package var ticket: CommitTicket?
  package let kind: Kind
  package var reply: [UInt8]
  /// Replies and events that came after it, in the order they were made.
  package var after: [UInt8] = []
  /// Set while the change is queued for a shared store's writer: `reply` is not written yet.
  package var queued: QueuedChange?

  package init(ticket: CommitTicket?, kind: Kind, reply: [UInt8], queued: QueuedChange? = nil) {
    self.ticket = ticket
    self.kind = kind
    self.reply = reply
    self.queued = queued
  }

  /// What goes out in its place now: nil while it still waits (for its writer or its commit).
  package var outcome: CommitTicket.Outcome? {
    guard queued == nil else { return nil }
    guard let ticket else { return .committed }
    return ticket.outcome
  }

  /// What is sent in the reply's place when its commit failed.
  package func failed(_ failure: CommitFailure) -> ProtocolError {
    switch kind {
    case .change: failure.reply
    case .read: failure.readReply
    }
  }
}

/// A reply waiting for its commit, with everything answered after it, which must not overtake it.
package struct HeldReply {
  package let ticket: CommitTicket
  /// A read's reply (held because it saw the change being committed), not the change's own.
  package let isRead: Bool
  package var reply: [UInt8]
  /// Replies and events that came after it, in the order they were made.
  package var after: [UInt8] = []
}

/// A reply waiting for its commit, with everything answered after it, which must not overtake it.
package struct HeldReply {
  package let ticket: CommitTicket
  package var reply: [UInt8]
  /// Replies and events that came after it, in the order they were made.
  package var after: [UInt8] = []
}

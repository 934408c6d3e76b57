/// A reply waiting for its commit, with everything answered after it, which must not overtake it.
struct HeldReply {
  let ticket: CommitTicket
  var reply: [UInt8]
  /// Replies and events that came after it, in the order they were made.
  var after: [UInt8] = []
}

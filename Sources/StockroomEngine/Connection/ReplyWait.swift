/// What a request's reply waits for before it may be sent.
package enum ReplyWait: Sendable {
  /// The change is in the next group commit; the reply is true once it is on disk.
  case commit(CommitTicket)
  /// Work done elsewhere (password hashing, a change on a shared store); the reply is written
  /// when it is done, and no later request runs before it.
  case work(PendingWork)
}

/// What a request's reply waits for before it may be sent.
package enum ReplyWait: Sendable {
  /// The change is in the next group commit; the reply is true once it is on disk.
  case commit(CommitTicket)
  /// A read that saw a change still being committed: it is sent once that change is saved, so
  /// no reply shows what a crash could take back; an error goes in its place if it is not.
  case durable(CommitTicket)
  /// Work done elsewhere (password hashing, a change on a shared store); the reply is written
  /// when it is done, and no later request runs before it.
  case work(PendingWork)

  /// The commit a reply is held behind, and whose reply it is; nil for work done elsewhere.
  package var held: (ticket: CommitTicket, kind: HeldReply.Kind)? {
    switch self {
    case .commit(let ticket): (ticket, .change)
    case .durable(let ticket): (ticket, .read)
    case .work: nil
    }
  }
}

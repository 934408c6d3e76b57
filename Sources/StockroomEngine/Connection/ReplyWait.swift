/// What a request's reply waits for before it may be sent.
///
/// Every request returns one (`nil` for most), through the command handler, the host and the
/// core, so it is kept one word: every payload is a reference (`QueuedChange` is a class, and
/// `.work`, whose payload is large, is `indirect`, boxed when made). With the queued change
/// inline, the optional was 129 bytes, copied through memory at each of those returns; the box
/// costs an allocation only for work done off the loop.
package enum ReplyWait: Sendable {
  /// The change is in the next group commit; the reply is true once it is on disk.
  case commit(CommitTicket)
  /// A read that saw a change still being committed: it is sent once that change is saved, so
  /// no reply shows what a crash could take back; an error goes in its place if it is not.
  case durable(CommitTicket)
  /// A change queued for a shared store's writer: its reply is written once the writer has
  /// applied it, and then waits for its commit as `.commit` does. The connection goes on
  /// taking requests meanwhile, but only those that cannot depend on it (more changes).
  case change(QueuedChange)
  /// Work done elsewhere (password hashing, a read of the database); the reply is written
  /// when it is done, and no later request runs before it.
  indirect case work(PendingWork)

  /// The commit a reply is held behind, and whose reply it is; nil when it waits for no commit.
  package var held: (ticket: CommitTicket, kind: HeldReply.Kind)? {
    switch self {
    case .commit(let ticket): (ticket, .change)
    case .durable(let ticket): (ticket, .read)
    case .change, .work: nil
    }
  }
}

import StockroomDomain
import StockroomProtocol

/// Changes: one path on every store. A change is submitted to the shop's change path, which
/// applies it at once (memory, SQLite) or queues it for a shared store's writer (PostgreSQL),
/// which applies it in its next transaction; either way its reply is written from what the
/// change did (`answer`) and then waits for the change's commit.
extension CommandHandler {
  /// Makes the change a handler asked for: answered now when the shop applied it at once, or
  /// queued (`ReplyWait.change`) and answered by `answer` once the writer has applied it.
  package func change(
    _ request: ChangeRequest, command: CommandID?, session: inout Session, out: inout ReplyEncoder
  ) throws -> ReplyWait? {
    switch try shop.submit(request.mutation) {
    case .queued(let ticket):
      return .change(QueuedChange(ticket, request, command: command))
    case .applied(let applied, _) where isRetryOnDisk(applied):
      // A retry of a keyed order whose first answer is in the database: read there, off the
      // loop. It changed nothing, so nothing waits for a commit; an order's answer leaves the
      // session as it is.
      let session = session
      return .work(
        .read(
          ReadTicket(for: .of(account: session.account, source: session.source)) { out in
            var unchanged = session
            try request.answer(applied, &unchanged, &out)
          }))
    case .applied(let applied, let commit):
      return answer(request, applied, commit, session: &session, out: &out).wait
    }
  }

  /// The reply to a queued change its writer has answered, counted by command and result now.
  package func answer(_ change: QueuedChange, session: inout Session, out: inout ReplyEncoder) -> ReplyWait? {
    let failure: ErrorCode?
    var wait: ReplyWait?
    switch change.ticket.result {
    case .applied(let applied, let commit)?:
      precondition(!isRetryOnDisk(applied), "a shared store's writer answers a keyed retry with its receipt")
      (wait, failure) = answer(change.request, applied, commit, session: &session, out: &out)
    case .refused(let error)?: failure = fail(error, out: &out)
    case .failed(let commitFailure)?: failure = fail(commitFailure.reply, out: &out)
    case nil: preconditionFailure("answered only once the writer is done with it")
    }
    stats.commands.record(change.command, failure)
    return wait
  }

  /// Whether the request on `line` must wait until the changes a connection has queued for the
  /// writer are answered. Only another change may run meanwhile, and only one whose handler
  /// reads its arguments, not the shop (a `.change` route; `.changeFromShop` waits): it cannot
  /// depend on them, since the shop's rules judge it when the writer applies it, after them.
  /// Anything else could show them, or run as someone they change, so it waits. A line that does not parse does not wait: its error is answered in
  /// its place among the replies.
  package func mustWaitForChanges(_ line: ArraySlice<UInt8>) -> Bool {
    var words: [Word] = []
    guard (try? Tokenizer.words(in: line, into: &words)) != nil, !words.isEmpty,
      let request = try? CommandTable.parse(words), let route = CommandRoutes.route(for: request.id)
    else { return false }
    if case .change = route { return false }
    return true
  }

  /// Writes the reply from what the change did; it waits for the change's commit, when there is
  /// one, even when writing it failed, since the change is made.
  private func answer(
    _ request: ChangeRequest, _ applied: Applied, _ commit: CommitTicket?, session: inout Session,
    out: inout ReplyEncoder
  ) -> (wait: ReplyWait?, failure: ErrorCode?) {
    let mark = out.bytes.count
    var failure: ErrorCode?
    do {
      try request.answer(applied, &session, &out)
    } catch {
      out.bytes.removeSubrange(mark...)
      failure = fail(error, out: &out)
    }
    return (commit.map(ReplyWait.commit), failure)
  }

  /// A keyed order's retry whose first answer is only in the database, read there.
  private func isRetryOnDisk(_ applied: Applied) -> Bool {
    if case .reordered = applied.outcome { shop.history != nil } else { false }
  }
}

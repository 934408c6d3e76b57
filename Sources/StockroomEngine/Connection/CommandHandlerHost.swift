import StockroomDomain
import StockroomProtocol

/// The part of a `ConnectionHost` that is the same wherever a connection runs: requests go to the
/// `CommandHandler`, work done elsewhere comes back through the connection's `LoopExecutor`, and
/// WHO's registry hears who the connection is. The transport's `Connection` and the tests'
/// embedded channel both conform, so neither writes these again; each keeps what is its own
/// (watching, refusals, what finished work does to its socket).
package protocol CommandHandlerHost: ConnectionHost, CommitWaiter {
  var id: Int { get }
  var commandHandler: CommandHandler { get }
  /// Where completions of work run elsewhere come back to.
  var executor: any LoopExecutor { get }
  /// Work `run` started is done (called on the executor): the core's `workFinished`, then
  /// whatever the host does after.
  func workFinished()
  /// A change `submit` handed to its writer was answered (called on the executor): the core's
  /// `changeAnswered`, then whatever the host does after.
  func changeAnswered()
}

extension CommandHandlerHost {
  package func handle(_ line: ArraySlice<UInt8>, session: inout Session, out: inout ReplyEncoder) -> ReplyWait? {
    commandHandler.handle(line, session: &session, out: &out)
  }

  package func finish(_ work: PendingWork, session: inout Session, out: inout ReplyEncoder) -> ReplyWait? {
    commandHandler.finish(work, session: &session, out: &out)
  }

  package func role(_ session: inout Session) -> Role {
    commandHandler.role(&session)
  }

  package func awaitCommit(_ ticket: CommitTicket) {
    ticket.notify(self)
  }

  package func run(_ work: PendingWork) {
    // Weak: a connection closed while its work runs elsewhere is not kept for the completion.
    let done: @Sendable () -> Void = { [weak self] in self?.workFinished() }
    switch work {
    case .credential(let ticket): ticket.run(on: executor, pool: commandHandler.credentials, done: done)
    case .read(let ticket): ticket.run(on: executor, pool: commandHandler.history, done: done)
    case .readIndex(let ticket, _): ticket.run(on: executor, done: done)
    }
  }

  package func submit(_ change: QueuedChange) {
    change.ticket.run(on: executor) { [weak self] in self?.changeAnswered() }
  }

  package func answer(_ change: QueuedChange, session: inout Session, out: inout ReplyEncoder) -> ReplyWait? {
    commandHandler.answer(change, session: &session, out: &out)
  }

  package func mustWaitForChanges(_ line: ArraySlice<UInt8>) -> Bool {
    commandHandler.mustWaitForChanges(line)
  }

  package func presenceChanged(_ entry: Presence.Entry?) {
    commandHandler.presence.update(id, entry)
  }
}

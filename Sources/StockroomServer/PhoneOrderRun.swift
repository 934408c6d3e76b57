import StockroomEngine
import StockroomProtocol
import StockroomTransport

/// One phone order run as a guest's request line, `ORDER <item> <n>`, through the same
/// `CommandHandler` a TCP connection's lines go through: the same checks, the same change path
/// and commit, the same order rate for the phone's address. It plays the part a connection
/// plays for its replies: it waits for the commit (or the work elsewhere) the reply waits for,
/// on the loop it runs on, and then hands the finished reply to `done`.
final class PhoneOrderRun: CommitWaiter, @unchecked Sendable {
  // Touched only on `loop`'s thread, one step after another, as a connection's state is.
  private var session: Session
  private var out = ReplyEncoder(capacity: 1024)
  private var ticket: CommitTicket?
  private let handler: CommandHandler
  private let loop: EventLoop
  private let done: @Sendable ([UInt8]) -> Void

  var executor: any LoopExecutor { loop }

  init(handler: CommandHandler, loop: EventLoop, source: PeerSource, done: @escaping @Sendable ([UInt8]) -> Void) {
    self.handler = handler
    self.loop = loop
    self.done = done
    // Plain HTTP: were a password ever sent here, it could be read on the way.
    self.session = Session(transport: .plaintextNetwork, source: source)
  }

  /// Runs `line`; on the loop's thread.
  func start(_ line: String) {
    follow(handler.handle(Array(line.utf8)[...], session: &session, out: &out))
  }

  private func follow(_ wait: ReplyWait?) {
    switch wait {
    case nil:
      done(out.bytes)
    case .commit(let held), .durable(let held):
      ticket = held
      held.notify(self)
    case .change(let change):
      change.ticket.run(on: loop) { [self] in follow(handler.answer(change, session: &session, out: &out)) }
    case .work(let work):
      run(work)
    }
  }

  func commitFinished() {
    guard let ticket, let outcome = ticket.outcome else { return }
    self.ticket = nil
    if case .failed(let failure) = outcome {
      out = ReplyEncoder(capacity: 256)
      out.error(failure.reply)
    }
    done(out.bytes)
  }

  /// Work elsewhere, as a connection runs it (`Connection.run`); its reply is written on the loop.
  private func run(_ work: PendingWork) {
    let finished: @Sendable () -> Void = { [self] in follow(handler.finish(work, session: &session, out: &out)) }
    switch work {
    case .credential(let ticket): ticket.run(on: loop, pool: handler.credentials, done: finished)
    case .read(let ticket): ticket.run(on: loop, pool: handler.history, done: finished)
    case .readIndex(let ticket, _): ticket.run(on: loop, done: finished)
    }
  }
}

import Foundation
import StockroomDomain
import StockroomEngine
import StockroomProtocol
import StockroomSystem
import Synchronization

/// One connection to the engine with no socket, no listener and no event loop, in the manner
/// of SwiftNIO's `EmbeddedChannel`: bytes written in run through a `ConnectionCore` and the real
/// command handlers, and the bytes it answers are read out. The test's thread is the loop:
/// work done elsewhere (password hashing on the credentials pool, a history read) hands its
/// completion back through `execute`, and runs when the test next reads. Time is the engine
/// harness's `ManualClock`, which the test moves (`advance`), so deadlines and the throttle's
/// waits end only when it says, or when a `read` would otherwise wait (see `ManualClock`).
final class EmbeddedChannel: CommandHandlerHost, LoopExecutor, @unchecked Sendable {
  private let engine: EngineHarness
  let id: Int
  private var core: ConnectionCore
  private var mailbox: EventMailbox?
  /// Completions handed in from other threads, run on the test's thread by `read`; nil once
  /// the connection is closed, when what arrives is dropped, as a loop drops work for a
  /// connection it has closed. A task holds the channel, so one queued for ever would keep the
  /// channel, its engine and the engine's files (a restart's lock) alive for ever.
  private let tasks = Mutex<[@Sendable () -> Void]?>([])
  private let arrived = Semaphore()
  /// The harness's clock, which every channel of the engine shares.
  var now: UInt64 { engine.clock.now() }
  /// How long `read` waits for work done elsewhere before it gives up.
  static let patience = Duration.seconds(60)

  /// `source` is the address the connection stands for coming from; nil for none known.
  init(engine: EngineHarness, id: Int, source: PeerSource? = nil) {
    self.engine = engine
    self.id = id
    core = ConnectionCore(
      limits: engine.limits, now: engine.clock.now(), transport: .plaintextLocal, source: source, id: id)
    engine.openChannels.opened()
    core.start(rejection: nil, now: now)
  }

  /// A client that goes away closes, as its socket's close would tell a server.
  deinit {
    if core.phase != .closed { core.close(.clientClosed, host: self) }
    forget()
  }

  private var forgotten = false

  /// Leaves the shop's registries once: the hub, WHO's presence and the client count.
  private func forget() {
    guard !forgotten else { return }
    forgotten = true
    // Taken out and released after the lock: a dropped task's captures may hand work back here
    // as they go.
    _ = tasks.withLock { tasks in
      defer { tasks = nil }
      return tasks
    }
    engine.clock.cancel(for: id)
    engine.shop.hub.unsubscribe(id)
    engine.handler.watcherPlaces.release(id)
    engine.handler.presence.update(id, nil)
    mailbox = nil
    engine.openChannels.closed()
  }

  var executor: any LoopExecutor { self }
  /// The engine has closed the connection, or finished writing to it for good.
  var isClosed: Bool { forgotten || core.phase == .closed || core.finishedWriting }

  /// What a client sends.
  func write(_ bytes: [UInt8]) {
    runTasks()
    core.received(bytes, now: now, host: self)
  }

  /// The client half-closes: no more requests.
  func endInput() {
    core.inputEnded(now: now, host: self)
  }

  /// Everything the engine has answered so far, waiting for work done elsewhere when there is
  /// none yet (and moving the clock to the next timer before it waits); empty once the
  /// connection has closed and everything was read.
  func read() throws -> [UInt8] {
    while true {
      runTasks()
      let output = core.takeOutput(now: now, host: self)
      if !output.isEmpty { return output }
      if core.phase == .closed || core.finishedWriting {
        forget()
        return []
      }
      if engine.clock.advanceToNextTimer() { continue }
      guard arrived.wait(timeout: Self.patience) else {
        throw EngineClient.Failure(description: "no answer from the engine within \(Self.patience)")
      }
    }
  }

  /// What the engine has answered so far, without waiting: empty while a reply is held (for a
  /// commit, say) as much as when nothing was asked.
  func readNow() -> [UInt8] {
    runTasks()
    return core.takeOutput(now: now, host: self)
  }

  /// Moves the harness's clock on, and lets whatever deadline of this connection has come fire
  /// (and whatever was scheduled for later, on any connection, be handed back).
  func advance(by duration: Duration) {
    engine.clock.advance(by: duration)
    if let deadline = core.nextDeadline(now: now), deadline <= now { core.deadlineReached(now: now, host: self) }
  }

  /// The client goes away; again is nothing.
  func close() {
    if core.phase != .closed { core.close(.clientClosed, host: self) }
    forget()
  }

  /// Runs the completions handed in so far (events for a watcher among them) without taking
  /// any output, as a loop serves a client that reads nothing.
  func runTasks() {
    let batch = tasks.withLock { tasks in
      defer { if tasks != nil { tasks = [] } }
      return tasks ?? []
    }
    for task in batch { task() }
  }

  // MARK: LoopExecutor

  @discardableResult
  func execute(_ task: @escaping @Sendable () -> Void) -> Bool {
    let queued = tasks.withLock { tasks in
      tasks?.append(task)
      return tasks != nil
    }
    arrived.signal()
    return queued
  }

  func executeLater(_ delay: Duration, _ task: @escaping @Sendable () -> Void) {
    // The task is handed back like any other completion once the test has moved the clock on,
    // and dropped if the channel closes first (see `ManualClock.cancel`).
    engine.clock.schedule(after: delay, for: id) { [weak self] in self?.execute(task) }
  }

  // MARK: CommitWaiter

  func commitFinished() {
    _ = core.commitFinished()
  }

  // MARK: ConnectionHost (the rest is `CommandHandlerHost`'s)

  var commandHandler: CommandHandler { engine.handler }

  func workFinished() { core.workFinished(now: now, host: self) }

  func changeAnswered() { core.changeAnswered(now: now, host: self) }

  func watchChanged(to watching: Set<String>?) -> [EncodedEvent] {
    let (mailbox, owed) = engine.shop.hub.resubscribe(id, from: mailbox, to: watching) { [weak self] in
      guard let self else { return }
      self.execute { self.deliverEvents() }
    }
    self.mailbox = mailbox
    // A channel here is never cut for another's watch: no closing is attached to its place.
    if watching == nil { engine.handler.watcherPlaces.release(id) }
    return owed
  }

  private func deliverEvents() {
    guard core.phase == .open, let mailbox else { return }
    let (events, overflowed, _) = mailbox.take()
    guard !overflowed else {
      core.close(.watcherBehind(events: EventMailbox.capacity), host: self)
      return
    }
    core.eventsArrived(events, host: self)
  }

  func refused(_ foreign: ForeignProtocol) {}
}

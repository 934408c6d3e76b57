import Foundation
import StockroomLogging
import StockroomSystem
import Synchronization

/// Where a set of sockets is served: one place that runs everything for them in turn, the way a
/// swift-nio or Redis event loop does. What every loop does lives here: tasks handed in from
/// other threads, timers, the handlers of registered descriptors and shutdown. How it waits is
/// its backend's (`IOBackend`): `EpollBackend` (a thread in `epoll_wait`) or `DispatchBackend`
/// (a serial Dispatch queue with a source per socket). Handlers are told `Readiness`, the same on
/// both.
///
/// Handlers, timers and the interest sets are touched only on the loop (its thread, or its
/// queue); other threads talk to it with `execute`, which is what makes the unchecked `Sendable`
/// sound. Debug builds assert it at every loop-only call, as SwiftNIO's loops do.
package final class EventLoop: @unchecked Sendable {
  /// What a registered descriptor is told. Called on the loop only.
  package protocol Handler: AnyObject {
    func ready(_ readiness: Readiness)
    /// The loop is stopping with the descriptor still registered.
    func loopStopped()
    /// The server is shutting down: take no new work, finish what is owed.
    func shutdownRequested()
    /// Whether nothing is owed any more (every reply written), so the loop may stop.
    var isSettled: Bool { get }
    /// Every `idleSweepInterval`, once a handler asked for it (`requestIdleSweeps`): a chance to
    /// give back what the descriptor holds while it is quiet. True when it gave something back.
    func idleSweep() -> Bool
  }

  package struct Interest: OptionSet, Sendable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }
    package static let read = Interest(rawValue: 1)
    package static let write = Interest(rawValue: 2)
  }

  package struct TimerID: Hashable, Sendable {
    fileprivate let value: Int
  }

  /// Tasks waiting for the loop, and whether it still takes them.
  private struct Queue {
    var tasks: [LoopTask] = []
    /// Set as the loop ends: a task queued later would never run, so it is refused.
    var closed = false
  }

  package let name: String
  private let logger: Logger
  private let backend: any LoopBackend
  private(set) var isFinished = false
  private let queue = Mutex(Queue())
  /// The array `runTasks` swaps in for the queue's; on the loop only.
  private var running: [LoopTask] = []
  /// Tasks refused because the loop had stopped: their work (a reply, a wake-up) was lost, so
  /// the first is logged and all are counted.
  package let rejectedTasks = Atomic<Int>(0)
  /// Set while the loop waits (or is about to), or (`dispatch`) while no turn is queued; whoever
  /// clears it owes a wake-up.
  private let asleep = Atomic<Bool>(false)
  private let stopped = Atomic<Bool>(false)
  private var handlers = HandlerTable()
  /// Stamped on each registration, so that an event still in a batch for a descriptor closed
  /// and reused meanwhile is recognised as stale and dropped.
  private var generation: UInt32 = 0
  /// Set by `beginShutdown`: handlers registered afterwards hear `shutdownRequested` too, once
  /// the task that registered them is done (a connection greets first).
  private var shuttingDown = false
  private var registeredDuringShutdown: [Int32] = []
  /// Soonest first; every connection may hold one, so finding the next is O(1), not a scan.
  private var timers = TimerHeap()
  /// Timers not yet fired or cancelled; a heap entry missing here was cancelled and is skipped.
  private var liveTimers: Set<Int> = []
  /// The timer last found live at the top of the heap: while it stays there and is not
  /// cancelled, `nextDeadline` needs no look-up in `liveTimers` (a hash of its id every turn,
  /// which a cancelled timer deeper in the heap otherwise costs for as long as it is there).
  private var liveTop: Int?
  /// The clock as `runTimers` read it, when no timer ran: the epoll loop computes its wait just
  /// after, with nothing run in between, so the same reading serves (one clock read a turn fewer).
  private var clockAfterTimers: UInt64?
  private var nextTimer = 0
  /// The monotonic clock as of the last wake-up, in nanoseconds: one clock read per batch of
  /// events serves every connection's "last heard from" stamp.
  package private(set) var now: UInt64 = EventLoop.clock()
  /// The idle sweep's timer is set (`requestIdleSweeps`).
  private var idleSweepsArmed = false

  /// Where every connection on the loop reads into: a read is handed on (copied into the
  /// connection's input) before the loop does anything else, so one buffer serves them all and an
  /// idle connection holds none. On the loop only.
  package let readBuffer: UnsafeMutableRawBufferPointer = .allocate(byteCount: 16 * 1024, alignment: 16)

  /// Called on the loop at the end of every round of work, before it waits for more: what the
  /// round queued for a group commit may be written from then on (`ChangePath.roundEnded`).
  /// Redis writes its append-only file at the same point (`beforeSleep`), for the same reason:
  /// one commit for every request a wake-up read, not one for whichever came first.
  package let roundEnd: (@Sendable () -> Void)?

  package init(
    name: String, io: IOBackend = .epoll, logger: Logger = Logger(isEnabled: false),
    roundEnd: (@Sendable () -> Void)? = nil
  ) {
    self.name = name
    self.logger = logger
    self.roundEnd = roundEnd
    switch io {
    case .epoll: backend = EpollBackend(name: name)
    case .dispatch: backend = DispatchBackend(name: name)
    }
    backend.start(self)
  }

  deinit {
    readBuffer.deallocate()
  }

  /// Runs `task` on the loop, after the tasks queued before it. Returns false, and the task
  /// never runs, when the loop has stopped.
  @discardableResult
  package func execute(_ task: @escaping @Sendable () -> Void) -> Bool {
    let accepted = queue.withLock { queue in
      guard !queue.closed else { return false }
      queue.tasks.append(LoopTask(body: task))
      return true
    }
    guard accepted else {
      if rejectedTasks.add(1, ordering: .relaxed).oldValue == 0 {
        logger.warning("loop \(name) had stopped; a task for it was dropped (later ones are counted, not logged)")
      }
      return false
    }
    if asleep.exchange(false, ordering: .sequentiallyConsistent) { backend.wake() }
    return true
  }

  /// Whether the caller is on the loop's thread (`epoll`) or queue (`dispatch`).
  package var inLoop: Bool { backend.inLoop }

  private func assertInLoop(_ function: StaticString = #function) {
    assert(inLoop, "EventLoop.\(function) called off loop \(name)'s thread")
  }

  /// Runs the tasks already queued, then ends the loop; handlers still registered hear
  /// `loopStopped`. The loop's descriptors are closed on its way out.
  package func stop() {
    execute { [self] in stopped.store(true, ordering: .relaxed) }
  }

  /// Tells every handler, and every one registered from now on, that the server is shutting
  /// down; returns once the handlers have heard it (at once if the loop has stopped). Blocks:
  /// never call it on a loop's thread.
  package func beginShutdown() {
    precondition(!inLoop, "beginShutdown waits for the loop; call it from another thread")
    let heard = Semaphore()
    let accepted = execute { [self] in
      shuttingDown = true
      for registration in handlers.all { registration.handler.shutdownRequested() }
      heard.signal()
    }
    if accepted { heard.wait() }
  }

  /// Whether every handler is settled (owes nothing); true once the loop has stopped. Blocks:
  /// never call it on a loop's thread.
  package func isSettled() -> Bool {
    precondition(!inLoop, "isSettled waits for the loop; call it from another thread")
    let answer = Mutex<Bool?>(nil)
    let asked = Semaphore()
    let accepted = execute { [self] in
      let settled = handlers.all.allSatisfy { $0.handler.isSettled }
      answer.withLock { $0 = settled }
      asked.signal()
    }
    guard accepted else { return true }
    asked.wait()
    return answer.withLock { $0 } ?? true
  }

  // MARK: On the loop

  package func register(_ fd: Int32, _ handler: any Handler, interest: Interest) throws(Errno) {
    assertInLoop()
    generation = generation == .max ? 1 : generation + 1
    try backend.watch(fd, generation: generation, interest: interest)
    handlers[fd] = HandlerTable.Entry(generation: generation, handler: handler)
    if shuttingDown { registeredDuringShutdown.append(fd) }
  }

  package func change(_ fd: Int32, interest: Interest) throws(Errno) {
    assertInLoop()
    guard let registration = handlers[fd] else { return }
    try backend.change(fd, generation: registration.generation, interest: interest)
  }

  /// Forgets `fd`, which stays open to be registered again or closed with `close`. An event
  /// for it already in the batch being handled is then dropped, even if the kernel hands the
  /// number to a new descriptor at once.
  package func deregister(_ fd: Int32) {
    assertInLoop()
    guard handlers[fd] != nil else { return }
    handlers[fd] = nil
    backend.forget(fd)
  }

  /// Forgets `fd` if it is registered, and closes it: at once with `epoll`, and with `dispatch`
  /// once Dispatch has stopped watching it (see `DispatchDescriptor`). Close a descriptor that was
  /// ever registered on a loop only this way.
  package func close(_ fd: Int32) {
    assertInLoop()
    if handlers[fd] != nil { deregister(fd) }
    backend.close(fd)
  }

  package func schedule(after delay: Duration, _ body: @escaping () -> Void) -> TimerID {
    schedule(at: Self.clock() + Self.nanoseconds(delay), body)
  }

  /// Runs `body` once the monotonic clock (`clock()`, `now`) reaches `deadline`.
  package func schedule(at deadline: UInt64, _ body: @escaping () -> Void) -> TimerID {
    assertInLoop()
    nextTimer += 1
    timers.push(TimerHeap.Entry(deadline: deadline, id: nextTimer, body: body))
    liveTimers.insert(nextTimer)
    return TimerID(value: nextTimer)
  }

  /// How often handlers are asked to give back what they hold while quiet.
  package static let idleSweepInterval: Duration = .seconds(1)

  /// From now on, every `idleSweepInterval`, tells every handler `idleSweep`: one timer for the
  /// loop rather than one per connection and request. Called on the loop; asking again while
  /// the sweeps run does nothing.
  package func requestIdleSweeps() {
    assertInLoop()
    guard !idleSweepsArmed, !isFinished else { return }
    idleSweepsArmed = true
    _ = schedule(after: Self.idleSweepInterval) { [self] in
      idleSweepsArmed = false
      guard !isFinished && !stopped.load(ordering: .relaxed) else { return }
      var released = false
      for registration in handlers.all where registration.handler.idleSweep() { released = true }
      // Freed buffers go back to the allocator, which keeps the pages: a burst of connections
      // gone quiet would hold the server's memory at its peak. Trimmed at most once a sweep,
      // and only after something was given back.
      if released { MallocTrim.returnFreePages() }
      requestIdleSweeps()
    }
  }

  /// Cancelling a timer that already fired does nothing.
  package func cancel(_ timer: TimerID) {
    assertInLoop()
    guard liveTimers.remove(timer.value) != nil else { return }
    if timer.value == liveTop { liveTop = nil }
    // Connections that come and go leave their cancelled timers behind; past half the heap,
    // sweep them out so it stays the size of what is really pending.
    if timers.count > 64 && timers.count > 2 * liveTimers.count {
      timers.removeAll { !liveTimers.contains($0.id) }
    }
  }

  // MARK: The backend's turn, on the loop

  /// What every turn does before the loop waits again: queued tasks, news of a shutdown for
  /// late registrations, due timers.
  func takeTurn() {
    runTasks()
    tellLateRegistrations()
    runTimers()
  }

  /// Tells the handler of `fd` what it is ready for, unless the event is from a registration
  /// since forgotten (or one whose number another has taken); false when nobody was told.
  @discardableResult
  func deliver(_ fd: Int32, generation stamp: UInt32, _ readiness: Readiness) -> Bool {
    guard !isFinished, let registration = handlers[fd], registration.generation == stamp else { return false }
    registration.handler.ready(readiness)
    return true
  }

  var isStopping: Bool { stopped.load(ordering: .relaxed) }

  /// Says the loop sleeps; true when a task is already waiting (then it must not).
  func markAsleep() -> Bool {
    roundEnd?()
    asleep.store(true, ordering: .sequentiallyConsistent)
    return queue.withLock { !$0.tasks.isEmpty }
  }

  func markAwake() {
    asleep.store(false, ordering: .sequentiallyConsistent)
  }

  /// Reads the clock once for what the turn handles.
  func tick() {
    now = Self.clock()
  }

  /// Runs what the loop still owes, then tells every handler it has stopped.
  func finish() {
    isFinished = true
    // Tasks accepted before the queue closed were promised a run; later ones are refused.
    let last = queue.withLock { queue in
      queue.closed = true
      defer { queue.tasks = [] }
      return queue.tasks
    }
    for task in last { task.body() }
    for registration in handlers.all { registration.handler.loopStopped() }
    // What the last tasks and the handlers' goodbyes queued is not left waiting for a round.
    roundEnd?()
    handlers.removeAll()
    // No timer runs any more; their closures hold connections, and the idle sweep's this loop.
    timers = TimerHeap()
    liveTimers.removeAll()
    backend.finish()
  }

  /// Handlers registered since `beginShutdown` hear of it once the task that registered them is done.
  func tellLateRegistrations() {
    guard !registeredDuringShutdown.isEmpty else { return }
    let late = registeredDuringShutdown
    registeredDuringShutdown = []
    for fd in late { handlers[fd]?.handler.shutdownRequested() }
  }

  /// Swaps the queue's tasks with `running`, an empty array kept for the purpose: taking a copy
  /// and emptying the queue in place would allocate a fresh buffer every turn, tasks or none.
  func runTasks() {
    var batch = running
    running = []
    queue.withLock { queue in
      guard !queue.tasks.isEmpty else { return }
      swap(&batch, &queue.tasks)
    }
    if !batch.isEmpty {
      for task in batch { task.body() }
      // Run only when there was a task: it costs the general `replaceSubrange` even when empty.
      batch.removeAll(keepingCapacity: true)
    }
    running = batch
  }

  func runTimers() {
    clockAfterTimers = nil
    guard !timers.isEmpty else { return }
    let now = Self.clock()
    var ran = false
    while let top = timers.first, top.deadline <= now {
      timers.popFirst()
      guard liveTimers.remove(top.id) != nil else { continue }
      top.body()
      ran = true
    }
    if !ran { clockAfterTimers = now }
  }

  /// The soonest live timer's deadline, cancelled ones swept off the top on the way.
  func nextDeadline() -> UInt64? {
    // Every live timer is in the heap, so when the counts agree none there is cancelled, and the
    // top needs no look-up (a hash of its id, twice a request); nor does a top already found live.
    while timers.count != liveTimers.count, let top = timers.first, top.id != liveTop {
      guard liveTimers.contains(top.id) else {
        timers.popFirst()
        continue
      }
      liveTop = top.id
      break
    }
    return timers.first?.deadline
  }

  /// Milliseconds until the nearest timer, or -1 to wait for events alone.
  func millisecondsToNextTimer() -> Int32 {
    guard let nearest = nextDeadline() else { return -1 }
    let now = clockAfterTimers ?? Self.clock()
    guard nearest > now else { return 0 }
    return Int32(min((nearest - now + 999_999) / 1_000_000, 60_000))
  }

  package static func nanoseconds(_ duration: Duration) -> UInt64 {
    UInt64(duration.components.seconds) * 1_000_000_000 + UInt64(duration.components.attoseconds / 1_000_000_000)
  }

  package static func clock() -> UInt64 { MonotonicClock.now() }
}

extension EventLoop.Handler {
  /// Most descriptors (a listener, a test's pipe) owe no one anything.
  package func shutdownRequested() {}
  package var isSettled: Bool { true }
  package func idleSweep() -> Bool { false }
}

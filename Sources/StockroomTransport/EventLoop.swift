import CStockroomSystem
import Foundation
import StockroomEngine
import StockroomLogging
import StockroomSystem
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Where a set of sockets is served: one place that runs everything for them in turn, the way a
/// swift-nio or Redis event loop does. Two backends (`IOBackend`) wait on the sockets:
///
/// - `epoll`: one thread that waits in `epoll_wait` and reads, answers and writes on the thread
///   that waited. Dispatch sources cost a hand-off per socket event here: Dispatch's manager
///   thread sits in `epoll_wait` and wakes a worker for every readiness, and under fifty busy
///   clients on two cores most of the server's time went to the scheduler; this loop costs a
///   wake-up per batch of events instead.
/// - `dispatch`: one serial Dispatch queue, each socket's Dispatch read and write sources on it
///   (`DispatchDescriptor`), timers on one Dispatch timer source: nothing Linux-specific.
///
/// Either way, handlers, timers and the interest sets are touched only on the loop (its thread,
/// or its queue); other threads talk to it with `execute`, which is what makes the unchecked
/// `Sendable` sound. Debug builds assert it at every loop-only call, as SwiftNIO's loops do.
package final class EventLoop: @unchecked Sendable {
  /// What a registered descriptor is told. Called on the loop only.
  package protocol Handler: AnyObject {
    /// `events` is epoll's mask: some of EPOLLIN, EPOLLOUT, EPOLLHUP and EPOLLERR.
    func ready(_ events: UInt32)
    /// The loop is stopping with the descriptor still registered.
    func loopStopped()
    /// The server is shutting down: take no new work, finish what is owed.
    func shutdownRequested()
    /// Whether nothing is owed any more (every reply written), so the loop may stop.
    var isSettled: Bool { get }
  }

  package struct Interest: OptionSet, Sendable {
    package let rawValue: UInt32
    package init(rawValue: UInt32) { self.rawValue = rawValue }
    package static let read = Interest(rawValue: sr_epoll_in)
    package static let write = Interest(rawValue: sr_epoll_out)
  }

  /// What `Handler.ready` is told of a hang-up or an error.
  package static let hangUp = sr_epoll_hup | sr_epoll_err

  package struct TimerID: Hashable, Sendable {
    fileprivate let value: Int
  }

  /// Tasks waiting for the loop, and whether it still takes them.
  private struct Queue {
    var tasks: [@Sendable () -> Void] = []
    /// Set as the thread ends: a task queued later would never run, so it is refused.
    var closed = false
  }

  /// A registered descriptor's handler and the registration it belongs to.
  private struct Registration {
    let generation: UInt32
    let handler: any Handler
  }

  package let name: String
  private let logger: Logger
  /// `epoll` only (-1 for `dispatch`).
  private let epoll: Int32
  private let wakeFD: Int32
  /// `dispatch` only: the queue everything runs on, its sockets' sources and the one timer.
  private let dispatchQueue: DispatchQueue?
  private var descriptors: [Int32: DispatchDescriptor] = [:]
  /// Deregistered, their sources not all cancelled yet: a close must wait for them.
  private var retiring: [Int32: DispatchDescriptor] = [:]
  private var timerSource: (any DispatchSourceTimer)?
  /// The deadline the timer source is set for, so it is set again only when the soonest changes.
  private var armedDeadline: UInt64?
  private var finished = false
  private let queue = Mutex(Queue())
  /// Tasks refused because the loop had stopped: their work (a reply, a wake-up) was lost, so
  /// the first is logged and all are counted.
  package let rejectedTasks = Atomic<Int>(0)
  /// The loop's thread (`epoll`), set before anything runs on it; for the debug-build assertions.
  private let thread = Atomic<UInt>(0)
  /// Set while the loop waits (or is about to) in `epoll_wait`, or (`dispatch`) while no turn is
  /// queued; whoever clears it owes a wake-up.
  private let asleep = Atomic<Bool>(false)
  private let stopped = Atomic<Bool>(false)
  private var handlers: [Int32: Registration] = [:]
  /// Stamped beside the descriptor in epoll's data, so that an event still in the batch for a
  /// descriptor closed and reused meanwhile is recognised as stale and dropped.
  private var generation: UInt32 = 0
  /// Set by `beginShutdown`: handlers registered afterwards hear `shutdownRequested` too, once
  /// the task that registered them is done (a connection greets first).
  private var shuttingDown = false
  private var registeredDuringShutdown: [Int32] = []
  /// Soonest first; every connection may hold one, so finding the next is O(1), not a scan.
  private var timers = TimerHeap()
  /// Timers not yet fired or cancelled; a heap entry missing here was cancelled and is skipped.
  private var liveTimers: Set<Int> = []
  private var nextTimer = 0
  /// The monotonic clock as of the last wake-up, in nanoseconds: one clock read per batch of
  /// events serves every connection's "last heard from" stamp.
  package private(set) var now: UInt64 = EventLoop.clock()

  package init(name: String, io: IOBackend = .epoll, logger: Logger = Logger(isEnabled: false)) {
    self.name = name
    self.logger = logger
    if io == .dispatch {
      epoll = -1
      wakeFD = -1
      let queue = DispatchQueue(label: name)
      dispatchQueue = queue
      asleep.store(true, ordering: .relaxed)
      queue.setSpecific(key: Self.queueKey, value: identity)
      // Made and set now, not at the first timer: Dispatch opens a timerfd when a timer is
      // first set, and the first timer may come when descriptors have run out (the listener's
      // pause), which would leave it never firing and the listener deaf.
      let timer = DispatchSource.makeTimerSource(queue: queue)
      timer.setEventHandler { [self] in dispatchTimerFired() }
      timer.schedule(deadline: .now() + .seconds(3600), leeway: .seconds(1))
      timerSource = timer
      timer.resume()
      return
    }
    dispatchQueue = nil
    epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
    wakeFD = eventfd(0, Int32(EFD_CLOEXEC) | Int32(EFD_NONBLOCK))
    precondition(epoll >= 0 && wakeFD >= 0, "cannot create an event loop: \(Errno.current)")
    // Generation 0 is the wake-up descriptor's alone; registrations start at 1.
    var event = epoll_event(events: sr_epoll_in, data: epoll_data_t(u64: Self.key(wakeFD, generation: 0)))
    precondition(epoll_ctl(epoll, EPOLL_CTL_ADD, wakeFD, &event) == 0, "cannot watch the wake-up descriptor")
    // Returns once the thread runs and has its name, so that a server that says it listens has
    // every loop up (and `top -H` or /proc shows each by name from then on).
    let started = DispatchSemaphore(value: 0)
    let thread = Thread { [self] in
      self.thread.store(Self.currentThread(), ordering: .releasing)
      CurrentThread.setName(name)
      started.signal()
      run()
    }
    thread.start()
    started.wait()
  }

  /// Runs `task` on the loop's thread, after the tasks queued before it. Returns false, and
  /// the task never runs, when the loop has stopped.
  @discardableResult
  package func execute(_ task: @escaping @Sendable () -> Void) -> Bool {
    let accepted = queue.withLock { queue in
      guard !queue.closed else { return false }
      queue.tasks.append(task)
      return true
    }
    guard accepted else {
      if rejectedTasks.add(1, ordering: .relaxed).oldValue == 0 {
        logger.warning("loop \(name) had stopped; a task for it was dropped (later ones are counted, not logged)")
      }
      return false
    }
    if asleep.exchange(false, ordering: .sequentiallyConsistent) { wake() }
    return true
  }

  /// Whether the caller is on the loop's thread (`epoll`) or queue (`dispatch`).
  package var inLoop: Bool {
    if dispatchQueue != nil { return DispatchQueue.getSpecific(key: Self.queueKey) == identity }
    return thread.load(ordering: .acquiring) == Self.currentThread()
  }

  /// What the loop's queue carries under `queueKey`, for `inLoop`.
  private var identity: UInt { UInt(bitPattern: ObjectIdentifier(self).hashValue) }
  private static let queueKey = DispatchSpecificKey<UInt>()

  private func assertInLoop(_ function: StaticString = #function) {
    assert(inLoop, "EventLoop.\(function) called off loop \(name)'s thread")
  }

  /// Runs the tasks already queued, then ends the thread; handlers still registered hear
  /// `loopStopped`. The loop's descriptors are closed by the thread on its way out.
  package func stop() {
    execute { [self] in stopped.store(true, ordering: .relaxed) }
  }

  // MARK: On the loop's thread

  package func register(_ fd: Int32, _ handler: any Handler, interest: Interest) throws(Errno) {
    assertInLoop()
    generation = generation == .max ? 1 : generation + 1
    if let dispatchQueue {
      guard handlers[fd] == nil else { throw Errno(EEXIST) }
      let descriptor = DispatchDescriptor(
        fd: fd, generation: generation, queue: dispatchQueue,
        // Strong: a source's handlers live until it is cancelled, and the loop must outlive them
        // (as the epoll loop's thread holds it).
        onEvent: { [self] descriptor, events in dispatchEvent(descriptor, events) },
        onRetired: { [self] descriptor in
          if retiring[descriptor.fd] === descriptor { retiring[descriptor.fd] = nil }
        })
      descriptors[fd] = descriptor
      handlers[fd] = Registration(generation: generation, handler: handler)
      if shuttingDown { registeredDuringShutdown.append(fd) }
      descriptor.watch(read: interest.contains(.read), write: interest.contains(.write))
      return
    }
    var event = epoll_event(events: interest.rawValue, data: epoll_data_t(u64: Self.key(fd, generation: generation)))
    try Syscall.retrying { epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event) }
    handlers[fd] = Registration(generation: generation, handler: handler)
    if shuttingDown { registeredDuringShutdown.append(fd) }
  }

  /// Tells every handler, and every one registered from now on, that the server is shutting
  /// down; returns once the handlers have heard it (at once if the loop has stopped). Blocks:
  /// never call it on a loop's thread.
  package func beginShutdown() {
    precondition(!inLoop, "beginShutdown waits for the loop; call it from another thread")
    let heard = DispatchSemaphore(value: 0)
    let accepted = execute { [self] in
      shuttingDown = true
      for registration in handlers.values { registration.handler.shutdownRequested() }
      heard.signal()
    }
    if accepted { heard.wait() }
  }

  /// Whether every handler is settled (owes nothing); true once the loop has stopped. Blocks:
  /// never call it on a loop's thread.
  package func isSettled() -> Bool {
    precondition(!inLoop, "isSettled waits for the loop; call it from another thread")
    let answer = Mutex<Bool?>(nil)
    let asked = DispatchSemaphore(value: 0)
    let accepted = execute { [self] in
      let settled = handlers.values.allSatisfy { $0.handler.isSettled }
      answer.withLock { $0 = settled }
      asked.signal()
    }
    guard accepted else { return true }
    asked.wait()
    return answer.withLock { $0 } ?? true
  }

  package func change(_ fd: Int32, interest: Interest) throws(Errno) {
    assertInLoop()
    guard let registration = handlers[fd] else { return }
    if let descriptor = descriptors[fd] {
      descriptor.watch(read: interest.contains(.read), write: interest.contains(.write))
      return
    }
    var event = epoll_event(
      events: interest.rawValue, data: epoll_data_t(u64: Self.key(fd, generation: registration.generation)))
    try Syscall.retrying { epoll_ctl(epoll, EPOLL_CTL_MOD, fd, &event) }
  }

  /// Forgets `fd`, which stays open to be registered again or closed with `close`. An event
  /// for it already in the batch being handled is then dropped, even if the kernel hands the
  /// number to a new descriptor at once.
  package func deregister(_ fd: Int32) {
    assertInLoop()
    guard handlers.removeValue(forKey: fd) != nil else { return }
    if let descriptor = descriptors.removeValue(forKey: fd) {
      retiring[fd] = descriptor
      descriptor.retire(closing: false)
      return
    }
    var event = epoll_event()
    _ = epoll_ctl(epoll, EPOLL_CTL_DEL, fd, &event)
  }

  /// Forgets `fd` if it is registered, and closes it: at once with `epoll`, and with `dispatch`
  /// once Dispatch has stopped watching it (see `DispatchDescriptor`). Close a descriptor that was
  /// ever registered on a loop only this way.
  package func close(_ fd: Int32) {
    assertInLoop()
    if handlers[fd] != nil { deregister(fd) }
    if let descriptor = retiring[fd] {
      descriptor.closeWhenRetired()
      return
    }
    _ = Glibc.close(fd)
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

  /// Cancelling a timer that already fired does nothing.
  package func cancel(_ timer: TimerID) {
    assertInLoop()
    guard liveTimers.remove(timer.value) != nil else { return }
    // Connections that come and go leave their cancelled timers behind; past half the heap,
    // sweep them out so it stays the size of what is really pending.
    if timers.count > 64 && timers.count > 2 * liveTimers.count {
      timers.removeAll { !liveTimers.contains($0.id) }
    }
  }

  private func run() {
    let capacity = 256
    let events = UnsafeMutablePointer<epoll_event>.allocate(capacity: capacity)
    defer {
      events.deallocate()
      finish()
      Glibc.close(wakeFD)
      Glibc.close(epoll)
    }
    while true {
      runTasks()
      tellLateRegistrations()
      runTimers()
      if stopped.load(ordering: .relaxed) { return }
      asleep.store(true, ordering: .sequentiallyConsistent)
      // A task queued just before we said so would otherwise wait for the next socket event.
      let pending = queue.withLock { !$0.tasks.isEmpty }
      let count = epoll_wait(epoll, events, Int32(capacity), pending ? 0 : timeout())
      asleep.store(false, ordering: .sequentiallyConsistent)
      now = Self.clock()
      guard count > 0 else { continue }
      for index in 0..<Int(count) {
        let key = events[index].data.u64
        let fd = Int32(truncatingIfNeeded: key & 0xFFFF_FFFF)
        let stamp = UInt32(truncatingIfNeeded: key >> 32)
        if stamp == 0 {
          var value: UInt64 = 0
          _ = Glibc.read(wakeFD, &value, 8)
          continue
        }
        // Closed by an earlier event in this batch, or closed and its number reused by a new
        // registration: either way the event is not for the handler there now.
        guard let registration = handlers[fd], registration.generation == stamp else { continue }
        registration.handler.ready(events[index].events)
      }
    }
  }

  /// Runs what the loop still owes, then tells every handler it has stopped.
  private func finish() {
    finished = true
    // Tasks accepted before the queue closed were promised a run; later ones are refused.
    let last = queue.withLock { queue in
      queue.closed = true
      defer { queue.tasks = [] }
      return queue.tasks
    }
    for task in last { task() }
    for registration in handlers.values { registration.handler.loopStopped() }
    handlers = [:]
    for descriptor in descriptors.values { descriptor.retire(closing: false) }
    descriptors = [:]
    timerSource?.cancel()
    timerSource = nil
  }

  /// Handlers registered since `beginShutdown` hear of it once the task that registered them is done.
  private func tellLateRegistrations() {
    guard !registeredDuringShutdown.isEmpty else { return }
    let late = registeredDuringShutdown
    registeredDuringShutdown = []
    for fd in late { handlers[fd]?.handler.shutdownRequested() }
  }

  // MARK: dispatch

  /// A turn queued by `execute`: the tasks waiting, then what follows every turn.
  private func dispatchTurn() {
    guard !finished else { return }
    asleep.store(true, ordering: .sequentiallyConsistent)
    now = Self.clock()
    runTasks()
    endDispatchTurn()
  }

  private func dispatchEvent(_ descriptor: DispatchDescriptor, _ events: UInt32) {
    // From a registration since forgotten, or one that has given the number to another.
    guard !finished, let registration = handlers[descriptor.fd], registration.generation == descriptor.generation
    else { return }
    now = Self.clock()
    registration.handler.ready(events)
    endDispatchTurn()
  }

  private func dispatchTimerFired() {
    guard !finished else { return }
    armedDeadline = nil
    now = Self.clock()
    runTimers()
    endDispatchTurn()
  }

  private func endDispatchTurn() {
    tellLateRegistrations()
    if stopped.load(ordering: .relaxed) {
      finish()
      return
    }
    while let top = timers.first, !liveTimers.contains(top.id) { timers.popFirst() }
    guard let nearest = timers.first?.deadline, nearest != armedDeadline, let source = timerSource else { return }
    armedDeadline = nearest
    let clock = Self.clock()
    let delay = nearest > clock ? nearest - clock : 0
    source.schedule(deadline: .now() + .nanoseconds(Int(min(delay, 3_600_000_000_000))), leeway: .milliseconds(1))
  }

  // MARK: Both

  private func runTasks() {
    let batch = queue.withLock { queue -> [@Sendable () -> Void] in
      defer { queue.tasks.removeAll(keepingCapacity: true) }
      return queue.tasks
    }
    for task in batch { task() }
  }

  private func runTimers() {
    guard !timers.isEmpty else { return }
    let now = Self.clock()
    while let top = timers.first, top.deadline <= now {
      timers.popFirst()
      guard liveTimers.remove(top.id) != nil else { continue }
      top.body()
    }
  }

  /// Milliseconds until the nearest timer, or -1 to wait for events alone.
  private func timeout() -> Int32 {
    while let top = timers.first, !liveTimers.contains(top.id) { timers.popFirst() }
    guard let nearest = timers.first?.deadline else { return -1 }
    let now = Self.clock()
    guard nearest > now else { return 0 }
    return Int32(min((nearest - now + 999_999) / 1_000_000, 60_000))
  }

  private func wake() {
    if let dispatchQueue {
      dispatchQueue.async { [self] in dispatchTurn() }
      return
    }
    var one: UInt64 = 1
    _ = Glibc.write(wakeFD, &one, 8)
  }

  /// epoll's 64 bits of data: the registration's generation above the descriptor.
  private static func key(_ fd: Int32, generation: UInt32) -> UInt64 {
    UInt64(generation) << 32 | UInt64(UInt32(bitPattern: fd))
  }

  private static func currentThread() -> UInt { UInt(bitPattern: Int(bitPattern: pthread_self())) }

  package static func nanoseconds(_ duration: Duration) -> UInt64 {
    UInt64(duration.components.seconds) * 1_000_000_000 + UInt64(duration.components.attoseconds / 1_000_000_000)
  }

  package static func clock() -> UInt64 { MonotonicClock.now() }
}

extension EventLoop.Handler {
  /// Most descriptors (a listener, a test's pipe) owe no one anything.
  package func shutdownRequested() {}
  package var isSettled: Bool { true }
}

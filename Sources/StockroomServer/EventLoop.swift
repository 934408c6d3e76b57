import CStockroomSystem
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One thread that waits on its sockets with epoll and runs everything for them, the way a
/// swift-nio or Redis event loop does.
///
/// Dispatch sources cost a hand-off per socket event here: Dispatch's manager thread sits in
/// `epoll_wait` and wakes a worker for every readiness, and under fifty busy clients on two cores
/// most of the server's time went to the scheduler. A loop that reads, answers and writes on the
/// thread that waited costs a wake-up per batch of events instead.
///
/// Handlers, timers and the interest sets are touched only on the loop's thread; other threads
/// talk to it with `execute`, which is what makes the unchecked `Sendable` sound.
final class EventLoop: @unchecked Sendable {
  /// What a registered descriptor is told. Called on the loop's thread only.
  protocol Handler: AnyObject {
    /// `events` is epoll's mask: some of EPOLLIN, EPOLLOUT, EPOLLHUP and EPOLLERR.
    func ready(_ events: UInt32)
    /// The loop is stopping with the descriptor still registered.
    func loopStopped()
  }

  struct Interest: OptionSet, Sendable {
    let rawValue: UInt32
    static let read = Interest(rawValue: sr_epoll_in)
    static let write = Interest(rawValue: sr_epoll_out)
  }

  struct TimerID: Hashable, Sendable {
    fileprivate let value: Int
  }

  let name: String
  private let epoll: Int32
  private let wakeFD: Int32
  private let tasks = Mutex<[@Sendable () -> Void]>([])
  /// Set while the loop waits (or is about to) in `epoll_wait`; whoever clears it owes a wake-up.
  private let asleep = Atomic<Bool>(false)
  private let stopped = Atomic<Bool>(false)
  private var handlers: [Int32: any Handler] = [:]
  /// Soonest first; every connection may hold one, so finding the next is O(1), not a scan.
  private var timers = TimerHeap()
  /// Timers not yet fired or cancelled; a heap entry missing here was cancelled and is skipped.
  private var liveTimers: Set<Int> = []
  private var nextTimer = 0
  /// The monotonic clock as of the last wake-up, in nanoseconds: one clock read per batch of
  /// events serves every connection's "last heard from" stamp.
  private(set) var now: UInt64 = EventLoop.clock()

  init(name: String) {
    self.name = name
    epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
    wakeFD = eventfd(0, Int32(EFD_CLOEXEC) | Int32(EFD_NONBLOCK))
    precondition(epoll >= 0 && wakeFD >= 0, "cannot create an event loop: \(Errno.current)")
    var event = epoll_event(events: sr_epoll_in, data: epoll_data_t(fd: wakeFD))
    precondition(epoll_ctl(epoll, EPOLL_CTL_ADD, wakeFD, &event) == 0, "cannot watch the wake-up descriptor")
    let thread = Thread { [self] in
      sr_set_thread_name(name)
      run()
    }
    thread.start()
  }

  /// Runs `task` on the loop's thread, after the tasks queued before it.
  func execute(_ task: @escaping @Sendable () -> Void) {
    tasks.withLock { $0.append(task) }
    if asleep.exchange(false, ordering: .sequentiallyConsistent) { wake() }
  }

  /// Runs the tasks already queued, then ends the thread; handlers still registered hear
  /// `loopStopped`. The loop's descriptors are closed by the thread on its way out.
  func stop() {
    execute { [self] in stopped.store(true, ordering: .relaxed) }
  }

  // MARK: On the loop's thread

  func register(_ fd: Int32, _ handler: any Handler, interest: Interest) throws(Errno) {
    var event = epoll_event(events: interest.rawValue, data: epoll_data_t(fd: fd))
    try Syscall.retrying { epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event) }
    handlers[fd] = handler
  }

  func change(_ fd: Int32, interest: Interest) throws(Errno) {
    var event = epoll_event(events: interest.rawValue, data: epoll_data_t(fd: fd))
    try Syscall.retrying { epoll_ctl(epoll, EPOLL_CTL_MOD, fd, &event) }
  }

  /// Forgets `fd`; do this before closing it, so epoll never reports a number the kernel reused.
  func deregister(_ fd: Int32) {
    guard handlers.removeValue(forKey: fd) != nil else { return }
    var event = epoll_event()
    _ = epoll_ctl(epoll, EPOLL_CTL_DEL, fd, &event)
  }

  func schedule(after delay: Duration, _ body: @escaping () -> Void) -> TimerID {
    schedule(at: Self.clock() + Self.nanoseconds(delay), body)
  }

  /// Runs `body` once the monotonic clock (`clock()`, `now`) reaches `deadline`.
  func schedule(at deadline: UInt64, _ body: @escaping () -> Void) -> TimerID {
    nextTimer += 1
    timers.push(TimerHeap.Entry(deadline: deadline, id: nextTimer, body: body))
    liveTimers.insert(nextTimer)
    return TimerID(value: nextTimer)
  }

  /// Cancelling a timer that already fired does nothing.
  func cancel(_ timer: TimerID) {
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
      for handler in handlers.values { handler.loopStopped() }
      handlers = [:]
      Glibc.close(wakeFD)
      Glibc.close(epoll)
    }
    while true {
      runTasks()
      runTimers()
      if stopped.load(ordering: .relaxed) { return }
      asleep.store(true, ordering: .sequentiallyConsistent)
      // A task queued just before we said so would otherwise wait for the next socket event.
      let pending = tasks.withLock { !$0.isEmpty }
      let count = epoll_wait(epoll, events, Int32(capacity), pending ? 0 : timeout())
      asleep.store(false, ordering: .sequentiallyConsistent)
      now = Self.clock()
      guard count > 0 else { continue }
      for index in 0..<Int(count) {
        let fd = events[index].data.fd
        if fd == wakeFD {
          var value: UInt64 = 0
          _ = Glibc.read(wakeFD, &value, 8)
          continue
        }
        // A handler closed by an earlier event in this batch is gone; its event is stale.
        handlers[fd]?.ready(events[index].events)
      }
    }
  }

  private func runTasks() {
    let batch = tasks.withLock { tasks -> [@Sendable () -> Void] in
      defer { tasks.removeAll(keepingCapacity: true) }
      return tasks
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
    var one: UInt64 = 1
    _ = Glibc.write(wakeFD, &one, 8)
  }

  static func nanoseconds(_ duration: Duration) -> UInt64 {
    UInt64(duration.components.seconds) * 1_000_000_000 + UInt64(duration.components.attoseconds / 1_000_000_000)
  }

  static func clock() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
  }
}

import Dispatch
import StockroomSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// PROTOTYPE (issue 42, item 8): a serial Dispatch queue woken by one Dispatch read source on
/// the loop's epoll descriptor, whose handler drains `epoll_wait(…, 0)`; timers on a Dispatch
/// timer source. Wake-ups from other threads are `queue.async`, or with
/// `STOCKROOM_DISPATCH_EPOLL_WAKE=eventfd` the set's eventfd.
package final class DispatchEpollBackend: LoopBackend, @unchecked Sendable {
  private let queue: DispatchQueue
  private let set = EpollSet()
  private var loop: EventLoop?
  private var reader: (any DispatchSourceRead)?
  private var timerSource: (any DispatchSourceTimer)?
  private var armedDeadline: UInt64?
  private let wakesThroughSet: Bool

  package init(name: String) {
    queue = DispatchQueue(label: name)
    wakesThroughSet = getenv("STOCKROOM_DISPATCH_EPOLL_WAKE").map { String(cString: $0) } == "eventfd"
  }

  package func start(_ loop: EventLoop) {
    self.loop = loop
    _ = loop.markAsleep()
    queue.setSpecific(key: Self.queueKey, value: identity)
    let timer = DispatchSource.makeTimerSource(queue: queue)
    timer.setEventHandler { [self] in timerFired() }
    timer.schedule(deadline: .now() + .seconds(3600), leeway: .seconds(1))
    timerSource = timer
    timer.resume()
    let source = DispatchSource.makeReadSource(fileDescriptor: set.fd, queue: queue)
    source.setEventHandler { [self] in ready() }
    source.setCancelHandler { [set] in set.close() }
    reader = source
    source.resume()
  }

  package var inLoop: Bool { DispatchQueue.getSpecific(key: Self.queueKey) == identity }

  private var identity: UInt { UInt(bitPattern: ObjectIdentifier(self).hashValue) }
  private static let queueKey = DispatchSpecificKey<UInt>()

  package func wake() {
    if wakesThroughSet {
      set.wake()
    } else {
      queue.async { [self] in turn() }
    }
  }

  package func watch(_ fd: Int32, generation: UInt32, interest: EventLoop.Interest) throws(Errno) {
    try set.watch(fd, generation: generation, interest: interest)
  }

  package func change(_ fd: Int32, generation: UInt32, interest: EventLoop.Interest) throws(Errno) {
    try set.change(fd, generation: generation, interest: interest)
  }

  package func forget(_ fd: Int32) { set.forget(fd) }

  package func close(_ fd: Int32) { _ = Glibc.close(fd) }

  package func finish() {
    timerSource?.cancel()
    timerSource = nil
    reader?.cancel()
    reader = nil
    loop = nil
  }

  /// The epoll descriptor is readable: every event ready now, then the tasks, then the turn's
  /// end. Asleep only after the events: a task a handler queues is run below without a wake-up,
  /// and one queued after `runTasks` took the queue wakes the loop again (a wake-up consumed by
  /// the drain before the tasks ran would otherwise be lost).
  private func ready() {
    guard let loop, !loop.isFinished else { return }
    loop.tick()
    set.deliver(set.wait(0), to: loop)
    _ = loop.markAsleep()
    loop.runTasks()
    endTurn(loop)
  }

  private func turn() {
    guard let loop, !loop.isFinished else { return }
    _ = loop.markAsleep()
    loop.tick()
    loop.runTasks()
    endTurn(loop)
  }

  private func timerFired() {
    guard let loop, !loop.isFinished else { return }
    armedDeadline = nil
    loop.tick()
    loop.runTimers()
    endTurn(loop)
  }

  private func endTurn(_ loop: EventLoop) {
    loop.tellLateRegistrations()
    if loop.isStopping {
      loop.finish()
      return
    }
    guard let nearest = loop.nextDeadline(), nearest != armedDeadline, let source = timerSource else { return }
    armedDeadline = nearest
    let clock = MonotonicClock.now()
    let delay = nearest > clock ? nearest - clock : 0
    source.schedule(deadline: .now() + .nanoseconds(Int(min(delay, 3_600_000_000_000))), leeway: .milliseconds(1))
  }
}

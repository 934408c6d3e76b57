import Dispatch
import StockroomSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One serial Dispatch queue, each socket's Dispatch read and write sources on it
/// (`DispatchDescriptor`), the loop's timers on one Dispatch timer source, and a `HangUpSweep`.
/// It names no epoll or eventfd itself, but the package runs on Linux only, where libdispatch
/// sits on epoll (docs/architecture.md); a loop driven by Dispatch over the loop's own epoll
/// descriptor was tried as a cheaper way and not kept (docs/performance.md).
package final class DispatchBackend: LoopBackend, @unchecked Sendable {
  private let queue: DispatchQueue
  /// Set by `start`, cleared by `finish`: the sources' handlers hold the loop until then.
  private var loop: EventLoop?
  private var descriptors: [Int32: DispatchDescriptor] = [:]
  /// Forgotten, their sources not all cancelled yet: a close must wait for them.
  private var retiring: [Int32: DispatchDescriptor] = [:]
  private var timerSource: (any DispatchSourceTimer)?
  /// The deadline the timer source is set for, so it is set again only when the soonest changes.
  private var armedDeadline: UInt64?
  private let sweep: HangUpSweep

  package init(name: String) {
    queue = DispatchQueue(label: name)
    sweep = HangUpSweep(queue: queue)
  }

  package func start(_ loop: EventLoop) {
    self.loop = loop
    // Asleep until the first task: no turn is queued.
    _ = loop.markAsleep()
    queue.setSpecific(key: Self.queueKey, value: identity)
    // Made and set now, not at the first timer: Dispatch opens a timerfd when a timer is first
    // set, and the first timer may come when descriptors have run out (the listener's pause),
    // which would leave it never firing and the listener deaf.
    let timer = DispatchSource.makeTimerSource(queue: queue)
    timer.setEventHandler { [self] in timerFired() }
    timer.schedule(deadline: .now() + .seconds(3600), leeway: .seconds(1))
    timerSource = timer
    timer.resume()
    sweep.start()
  }

  package var inLoop: Bool { DispatchQueue.getSpecific(key: Self.queueKey) == identity }

  /// What the queue carries under `queueKey`, for `inLoop`.
  private var identity: UInt { UInt(bitPattern: ObjectIdentifier(self).hashValue) }
  private static let queueKey = DispatchSpecificKey<UInt>()

  package func wake() {
    queue.async { [self] in turn() }
  }

  package func watch(_ fd: Int32, generation: UInt32, interest: EventLoop.Interest) throws(Errno) {
    guard descriptors[fd] == nil, let loop else { throw Errno(EEXIST) }
    let descriptor = DispatchDescriptor(
      fd: fd, generation: generation, queue: queue, sweep: sweep,
      // Strong: a source's handlers live until it is cancelled, and the loop must outlive them
      // (as the epoll loop's thread holds it).
      onEvent: { [self, loop] descriptor, readiness in
        loop.tick()
        guard loop.deliver(descriptor.fd, generation: descriptor.generation, readiness) else { return }
        endTurn(loop)
      },
      onRetired: { [self] descriptor in
        if retiring[descriptor.fd] === descriptor { retiring[descriptor.fd] = nil }
      })
    descriptors[fd] = descriptor
    descriptor.watch(read: interest.contains(.read), write: interest.contains(.write))
  }

  package func change(_ fd: Int32, generation: UInt32, interest: EventLoop.Interest) throws(Errno) {
    descriptors[fd]?.watch(read: interest.contains(.read), write: interest.contains(.write))
  }

  package func forget(_ fd: Int32) {
    guard let descriptor = descriptors.removeValue(forKey: fd) else { return }
    retiring[fd] = descriptor
    descriptor.retire(closing: false)
  }

  /// Closes `fd` once Dispatch has stopped watching it (see `DispatchDescriptor`).
  package func close(_ fd: Int32) {
    if let descriptor = retiring[fd] {
      descriptor.closeWhenRetired()
      return
    }
    _ = Glibc.close(fd)
  }

  package func finish() {
    for descriptor in descriptors.values { descriptor.retire(closing: false) }
    descriptors = [:]
    timerSource?.cancel()
    timerSource = nil
    sweep.cancel()
    loop = nil
  }

  /// A turn queued by `wake`: the tasks waiting, then what follows every turn.
  private func turn() {
    guard let loop, !loop.isFinished else { return }
    // Asleep from the start of the turn: a task queued while it runs queues the next turn.
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

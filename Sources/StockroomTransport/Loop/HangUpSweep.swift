import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Looks, every `interval`, with one `poll()` for all of them, whether descriptors a `dispatch`
/// loop read from since the last look have hung up.
///
/// libdispatch tells of a hang-up once, with the input that came before it: input left unread
/// after that event (a reset in the middle of a long line, of which one read took only part; or
/// a last short line and the reset in one event, whose read took the line and not the reset)
/// raises no further event, and the connection would wait for the rest until its line timed
/// out. Each read event used to be followed by a `poll()` of its own to catch that: one system
/// call a request, in the one case where a hang-up comes with input. One look a sweep for every
/// descriptor read since costs the same call a tenth of a second at most, and hears such a
/// hang-up that much later than epoll, which is told it again for as long as it lasts.
/// Touched only on the loop's queue.
package final class HangUpSweep {
  package static let interval: DispatchTimeInterval = .milliseconds(100)

  private let queue: DispatchQueue
  private var timer: (any DispatchSourceTimer)?
  /// Read since the last look, each once (`DispatchDescriptor.awaitsSweep`).
  private var read: [DispatchDescriptor] = []
  private var probes: [pollfd] = []

  package init(queue: DispatchQueue) {
    self.queue = queue
  }

  /// Made now, not at the first read: Dispatch opens a timerfd when a timer is first set, and a
  /// read may come when descriptors have run out (see `DispatchBackend.start`).
  package func start() {
    let timer = DispatchSource.makeTimerSource(queue: queue)
    timer.setEventHandler { [weak self] in self?.look() }
    timer.schedule(deadline: .distantFuture)
    self.timer = timer
    timer.resume()
  }

  /// `descriptor` was read from: look at it at the next sweep.
  package func note(_ descriptor: DispatchDescriptor) {
    guard !descriptor.awaitsSweep else { return }
    descriptor.awaitsSweep = true
    if read.isEmpty { timer?.schedule(deadline: .now() + Self.interval, leeway: .milliseconds(20)) }
    read.append(descriptor)
  }

  package func cancel() {
    timer?.cancel()
    timer = nil
    for descriptor in read { descriptor.awaitsSweep = false }
    read = []
  }

  private func look() {
    let looked = read
    read = []
    probes.removeAll(keepingCapacity: true)
    for descriptor in looked {
      descriptor.awaitsSweep = false
      probes.append(pollfd(fd: descriptor.fd, events: 0, revents: 0))
    }
    guard poll(&probes, nfds_t(probes.count), 0) > 0 else { return }
    for (descriptor, probe) in zip(looked, probes) where probe.revents & Int16(POLLHUP | POLLERR) != 0 {
      descriptor.hungUpWhileReading()
    }
  }
}

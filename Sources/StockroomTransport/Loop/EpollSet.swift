import CStockroomSystem
import StockroomSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A loop's epoll descriptor and what goes with it: registrations keyed by descriptor and
/// generation, and a batch of ready events handed to the loop. An `eventfd` registered under
/// generation 0 lets another thread wake whoever waits on the set. Linux only, as epoll is.
package final class EpollSet {
  package let fd: Int32
  private let wakeFD: Int32
  private let capacity = 256
  private let events: UnsafeMutablePointer<epoll_event>

  package init() {
    fd = epoll_create1(Int32(EPOLL_CLOEXEC))
    wakeFD = eventfd(0, Int32(EFD_CLOEXEC) | Int32(EFD_NONBLOCK))
    precondition(fd >= 0 && wakeFD >= 0, "cannot create an event loop: \(Errno.current)")
    events = .allocate(capacity: capacity)
    // Generation 0 is the wake-up descriptor's alone; registrations start at 1.
    var event = epoll_event(events: sr_epoll_in, data: epoll_data_t(u64: Self.key(wakeFD, generation: 0)))
    precondition(epoll_ctl(fd, EPOLL_CTL_ADD, wakeFD, &event) == 0, "cannot watch the wake-up descriptor")
  }

  deinit {
    events.deallocate()
  }

  /// Closes the set and its wake-up descriptor, once the loop has run its last turn.
  package func close() {
    Glibc.close(wakeFD)
    Glibc.close(fd)
  }

  /// Makes a wait on the set return (from any thread).
  package func wake() {
    var one: UInt64 = 1
    _ = Glibc.write(wakeFD, &one, 8)
  }

  package func watch(_ descriptor: Int32, generation: UInt32, interest: EventLoop.Interest) throws(Errno) {
    try control(EPOLL_CTL_ADD, descriptor, generation: generation, interest: interest)
  }

  package func change(_ descriptor: Int32, generation: UInt32, interest: EventLoop.Interest) throws(Errno) {
    try control(EPOLL_CTL_MOD, descriptor, generation: generation, interest: interest)
  }

  package func forget(_ descriptor: Int32) {
    var event = epoll_event()
    _ = epoll_ctl(fd, EPOLL_CTL_DEL, descriptor, &event)
  }

  /// Waits up to `timeout` milliseconds (0: not at all, -1: for ever) for events, kept for
  /// `deliver`; returns how many came.
  package func wait(_ timeout: Int32) -> Int {
    max(0, Int(epoll_wait(fd, events, Int32(capacity), timeout)))
  }

  /// Tells `loop` what the last `count` events from `wait` say is ready; a wake-up is consumed,
  /// not told.
  package func deliver(_ count: Int, to loop: EventLoop) {
    for index in 0..<count {
      let key = events[index].data.u64
      let stamp = UInt32(truncatingIfNeeded: key >> 32)
      if stamp == 0 {
        var value: UInt64 = 0
        _ = Glibc.read(wakeFD, &value, 8)
        continue
      }
      loop.deliver(
        Int32(truncatingIfNeeded: key & 0xFFFF_FFFF), generation: stamp, Self.readiness(events[index].events))
    }
  }

  private func control(_ operation: Int32, _ descriptor: Int32, generation: UInt32, interest: EventLoop.Interest)
    throws(Errno)
  {
    let mask = (interest.contains(.read) ? sr_epoll_in : 0) | (interest.contains(.write) ? sr_epoll_out : 0)
    var event = epoll_event(events: mask, data: epoll_data_t(u64: Self.key(descriptor, generation: generation)))
    try Syscall.retrying { epoll_ctl(fd, operation, descriptor, &event) }
  }

  private static func readiness(_ events: UInt32) -> Readiness {
    var readiness: Readiness = []
    if events & sr_epoll_in != 0 { readiness.insert(.readable) }
    if events & sr_epoll_out != 0 { readiness.insert(.writable) }
    if events & (sr_epoll_hup | sr_epoll_err) != 0 { readiness.insert(.hangUp) }
    return readiness
  }

  /// epoll's 64 bits of data: the registration's generation above the descriptor.
  private static func key(_ descriptor: Int32, generation: UInt32) -> UInt64 {
    UInt64(generation) << 32 | UInt64(UInt32(bitPattern: descriptor))
  }
}

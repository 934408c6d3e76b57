import CStockroomSystem
import Foundation
import StockroomSystem
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One thread that waits in `epoll_wait` and reads, answers and writes on the thread that
/// waited. Dispatch sources cost a hand-off per socket event here: Dispatch's manager thread sits
/// in `epoll_wait` and wakes a worker for every readiness, and under fifty busy clients on two
/// cores most of the server's time went to the scheduler; this loop costs a wake-up per batch of
/// events instead. Another thread wakes it through an `eventfd`.
package final class EpollBackend: LoopBackend, @unchecked Sendable {
  private let name: String
  private let epoll: Int32
  private let wakeFD: Int32
  /// The loop's thread, set before anything runs on it; for `inLoop`.
  private let thread = Atomic<UInt>(0)

  package init(name: String) {
    self.name = name
    epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
    wakeFD = eventfd(0, Int32(EFD_CLOEXEC) | Int32(EFD_NONBLOCK))
    precondition(epoll >= 0 && wakeFD >= 0, "cannot create an event loop: \(Errno.current)")
    // Generation 0 is the wake-up descriptor's alone; registrations start at 1.
    var event = epoll_event(events: sr_epoll_in, data: epoll_data_t(u64: Self.key(wakeFD, generation: 0)))
    precondition(epoll_ctl(epoll, EPOLL_CTL_ADD, wakeFD, &event) == 0, "cannot watch the wake-up descriptor")
  }

  /// Returns once the thread runs and has its name, so that a server that says it listens has
  /// every loop up (and `top -H` or /proc shows each by name from then on).
  package func start(_ loop: EventLoop) {
    let started = Semaphore()
    let thread = Thread { [self] in
      self.thread.store(Self.currentThread(), ordering: .releasing)
      CurrentThread.setName(name)
      started.signal()
      run(loop)
    }
    thread.start()
    started.wait()
  }

  package var inLoop: Bool { thread.load(ordering: .acquiring) == Self.currentThread() }

  package func wake() {
    var one: UInt64 = 1
    _ = Glibc.write(wakeFD, &one, 8)
  }

  package func watch(_ fd: Int32, generation: UInt32, interest: EventLoop.Interest) throws(Errno) {
    var event = epoll_event(events: Self.mask(interest), data: epoll_data_t(u64: Self.key(fd, generation: generation)))
    try Syscall.retrying { epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event) }
  }

  package func change(_ fd: Int32, generation: UInt32, interest: EventLoop.Interest) throws(Errno) {
    var event = epoll_event(events: Self.mask(interest), data: epoll_data_t(u64: Self.key(fd, generation: generation)))
    try Syscall.retrying { epoll_ctl(epoll, EPOLL_CTL_MOD, fd, &event) }
  }

  package func forget(_ fd: Int32) {
    var event = epoll_event()
    _ = epoll_ctl(epoll, EPOLL_CTL_DEL, fd, &event)
  }

  package func close(_ fd: Int32) {
    _ = Glibc.close(fd)
  }

  package func finish() {}

  private func run(_ loop: EventLoop) {
    let capacity = 256
    let events = UnsafeMutablePointer<epoll_event>.allocate(capacity: capacity)
    defer {
      events.deallocate()
      loop.finish()
      Glibc.close(wakeFD)
      Glibc.close(epoll)
    }
    while true {
      loop.takeTurn()
      if loop.isStopping { return }
      let pending = loop.markAsleep()
      // A task queued just before the loop said it sleeps would otherwise wait for the next
      // socket event.
      let count = epoll_wait(epoll, events, Int32(capacity), pending ? 0 : loop.millisecondsToNextTimer())
      loop.markAwake()
      loop.tick()
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
        loop.deliver(fd, generation: stamp, Self.readiness(events[index].events))
      }
    }
  }

  private static func mask(_ interest: EventLoop.Interest) -> UInt32 {
    (interest.contains(.read) ? sr_epoll_in : 0) | (interest.contains(.write) ? sr_epoll_out : 0)
  }

  private static func readiness(_ events: UInt32) -> Readiness {
    var readiness: Readiness = []
    if events & sr_epoll_in != 0 { readiness.insert(.readable) }
    if events & sr_epoll_out != 0 { readiness.insert(.writable) }
    if events & (sr_epoll_hup | sr_epoll_err) != 0 { readiness.insert(.hangUp) }
    return readiness
  }

  /// epoll's 64 bits of data: the registration's generation above the descriptor.
  private static func key(_ fd: Int32, generation: UInt32) -> UInt64 {
    UInt64(generation) << 32 | UInt64(UInt32(bitPattern: fd))
  }

  private static func currentThread() -> UInt { UInt(bitPattern: Int(bitPattern: pthread_self())) }
}

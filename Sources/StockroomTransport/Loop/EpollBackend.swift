import Foundation
import StockroomSystem
import Synchronization

/// One thread that waits in `epoll_wait` and reads, answers and writes on the thread that
/// waited. Dispatch sources cost a hand-off per socket event here: Dispatch's manager thread sits
/// in `epoll_wait` and wakes a worker for every readiness, and under fifty busy clients on two
/// cores most of the server's time went to the scheduler; this loop costs a wake-up per batch of
/// events instead. Another thread wakes it through the set's `eventfd`.
package final class EpollBackend: LoopBackend, @unchecked Sendable {
  private let name: String
  private let set = EpollSet()
  /// The loop's thread, set before anything runs on it; for `inLoop`.
  private let thread = Atomic<UInt>(0)

  package init(name: String) {
    self.name = name
  }

  /// Returns once the thread runs and has its name, so that a server that says it listens has
  /// every loop up (and `top -H` or /proc shows each by name from then on).
  package func start(_ loop: EventLoop) {
    let started = Semaphore()
    let thread = Thread { [self] in
      self.thread.store(Self.currentThread(), ordering: .releasing)
      CurrentThread.setName(name)
      // Every turn of this thread ends in `markAsleep` or `finish`, which end the loop's round.
      CurrentThread.endsRounds = loop.roundEnd != nil
      started.signal()
      run(loop)
    }
    thread.start()
    started.wait()
  }

  package var inLoop: Bool { thread.load(ordering: .acquiring) == Self.currentThread() }

  package func wake() { set.wake() }

  package func watch(_ fd: Int32, generation: UInt32, interest: EventLoop.Interest) throws(Errno) {
    try set.watch(fd, generation: generation, interest: interest)
  }

  package func change(_ fd: Int32, generation: UInt32, interest: EventLoop.Interest) throws(Errno) {
    try set.change(fd, generation: generation, interest: interest)
  }

  package func forget(_ fd: Int32) { set.forget(fd) }

  package func close(_ fd: Int32) {
    _ = Glibc.close(fd)
  }

  package func finish() {}

  private func run(_ loop: EventLoop) {
    defer {
      loop.finish()
      set.close()
    }
    while true {
      loop.takeTurn()
      if loop.isStopping { return }
      let pending = loop.markAsleep()
      // A task queued just before the loop said it sleeps would otherwise wait for the next
      // socket event.
      let count = set.wait(pending ? 0 : loop.millisecondsToNextTimer())
      loop.markAwake()
      loop.tick()
      set.deliver(count, to: loop)
    }
  }

  private static func currentThread() -> UInt { UInt(bitPattern: Int(bitPattern: pthread_self())) }
}

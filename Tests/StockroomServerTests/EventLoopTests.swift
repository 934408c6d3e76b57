import Foundation
import Synchronization
import Testing

@testable import StockroomServer

#if canImport(Glibc)
  import Glibc
#endif

@Suite("The event loop")
struct EventLoopTests {
  /// Polls `condition` until it holds or `seconds` pass.
  private func eventually(_ seconds: Double = 20, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if condition() { return true }
      usleep(1000)
    }
    return condition()
  }

  @Test("tasks from many threads run on the loop's thread, each thread's in the order it queued them")
  func tasksKeepTheirOrder() {
    let loop = EventLoop(name: "test.tasks")
    defer { loop.stop() }
    let seen = Mutex<[Int: [Int]]>([:])
    let threads = Mutex<Set<UInt>>([])
    DispatchQueue.concurrentPerform(iterations: 4) { producer in
      for index in 0..<2000 {
        loop.execute {
          seen.withLock { $0[producer, default: []].append(index) }
          threads.withLock { $0.insert(UInt(bitPattern: Int(bitPattern: pthread_self()))) }
        }
      }
    }
    #expect(eventually { seen.withLock { $0.values.map(\.count).reduce(0, +) } == 8000 })
    seen.withLock { seen in
      for producer in 0..<4 { #expect(seen[producer] == Array(0..<2000)) }
    }
    #expect(threads.withLock { $0.count } == 1)
  }

  @Test("a timer fires after its delay, and a cancelled one never does")
  func timers() {
    let loop = EventLoop(name: "test.timers")
    defer { loop.stop() }
    let fired = Mutex<[String]>([])
    let started = Date()
    let elapsed = Mutex<TimeInterval>(0)
    loop.execute {
      let cancelled = loop.schedule(after: .milliseconds(50)) { fired.withLock { $0.append("cancelled") } }
      _ = loop.schedule(after: .milliseconds(100)) {
        elapsed.withLock { $0 = Date().timeIntervalSince(started) }
        fired.withLock { $0.append("kept") }
      }
      loop.cancel(cancelled)
    }
    #expect(eventually { fired.withLock { $0 } == ["kept"] })
    #expect(elapsed.withLock { $0 } >= 0.1)
    // The cancelled timer was due first; had it survived, it would have fired before "kept".
    #expect(fired.withLock { $0 } == ["kept"])
  }

  private final class PipeEnd: EventLoop.Handler, @unchecked Sendable {
    let fd: Int32
    let received = Mutex<[UInt8]>([])
    let stopped = Atomic<Bool>(false)
    init(fd: Int32) { self.fd = fd }
    func ready(_ events: UInt32) {
      var byte: UInt8 = 0
      while Glibc.read(fd, &byte, 1) == 1 { received.withLock { $0.append(byte) } }
    }
    func loopStopped() { stopped.store(true, ordering: .relaxed) }
  }

  @Test("a registered descriptor hears of its input, and hears when the loop stops")
  func readinessAndStop() throws {
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    defer {
      close(ends[0])
      close(ends[1])
    }
    try Syscall.setNonBlocking(ends[0])
    let loop = EventLoop(name: "test.readiness")
    let handler = PipeEnd(fd: ends[0])
    let registered = Atomic<Bool>(false)
    loop.execute {
      try? loop.register(handler.fd, handler, interest: .read)
      registered.store(true, ordering: .relaxed)
    }
    #expect(eventually { registered.load(ordering: .relaxed) })
    for byte in "hello".utf8 {
      var byte = byte
      #expect(write(ends[1], &byte, 1) == 1)
    }
    #expect(eventually { handler.received.withLock { $0 } == Array("hello".utf8) })
    loop.stop()
    #expect(eventually { handler.stopped.load(ordering: .relaxed) })
  }
}

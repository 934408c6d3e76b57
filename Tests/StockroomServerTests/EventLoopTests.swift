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
    let calls = Atomic<Int>(0)
    init(fd: Int32) { self.fd = fd }
    func ready(_ events: UInt32) {
      calls.add(1, ordering: .relaxed)
      var byte: UInt8 = 0
      while Glibc.read(fd, &byte, 1) == 1 { received.withLock { $0.append(byte) } }
    }
    func loopStopped() { stopped.store(true, ordering: .relaxed) }
  }

  /// Closes another descriptor from inside its own event and puts a new one on the same number,
  /// while the closed one's event is still in the batch.
  private final class Usurper: EventLoop.Handler, @unchecked Sendable {
    let loop: EventLoop
    let fd: Int32
    var victim: Int32 = -1
    var newcomer: PipeEnd?
    var newcomerWriteEnd: Int32 = -1
    let done = Atomic<Bool>(false)
    init(loop: EventLoop, fd: Int32) {
      self.loop = loop
      self.fd = fd
    }
    func ready(_ events: UInt32) {
      guard !done.load(ordering: .relaxed) else { return }
      loop.deregister(victim)
      close(victim)
      // pipe() takes the lowest free numbers: the victim's comes back at once.
      var ends: [Int32] = [0, 0]
      guard pipe(&ends) == 0, ends[0] == victim else { return }
      try? Syscall.setNonBlocking(ends[0])
      let newcomer = PipeEnd(fd: ends[0])
      try? loop.register(ends[0], newcomer, interest: .read)
      self.newcomer = newcomer
      newcomerWriteEnd = ends[1]
      done.store(true, ordering: .releasing)
    }
    func loopStopped() {}
  }

  @Test("an event left in the batch for a closed descriptor never reaches the one that reused its number")
  func staleEventsAreDropped() throws {
    // Two readable pipes, so both events arrive in one epoll_wait batch; whichever is handled
    // first closes the other and reuses its number for a new, empty pipe.
    var first: [Int32] = [0, 0]
    var second: [Int32] = [0, 0]
    #expect(pipe(&first) == 0 && pipe(&second) == 0)
    for fd in [first[0], second[0]] { try Syscall.setNonBlocking(fd) }
    var byte: UInt8 = 1
    #expect(write(first[1], &byte, 1) == 1 && write(second[1], &byte, 1) == 1)
    let loop = EventLoop(name: "test.stale")
    defer { loop.stop() }
    let one = Usurper(loop: loop, fd: first[0])
    let two = Usurper(loop: loop, fd: second[0])
    one.victim = second[0]
    two.victim = first[0]
    loop.execute {
      try? loop.register(one.fd, one, interest: .read)
      try? loop.register(two.fd, two, interest: .read)
    }
    #expect(eventually { one.done.load(ordering: .acquiring) || two.done.load(ordering: .acquiring) })
    // Let the loop finish the batch and wait once more: a task runs only after it.
    let settled = Atomic<Bool>(false)
    loop.execute { settled.store(true, ordering: .relaxed) }
    #expect(eventually { settled.load(ordering: .relaxed) })
    let winner = one.done.load(ordering: .acquiring) ? one : two
    // Nothing was written to the newcomer's pipe: any call it had was the victim's stale event.
    #expect(winner.newcomer != nil)
    let staleCalls = winner.newcomer?.calls.load(ordering: .relaxed)
    #expect(staleCalls == 0)
    for fd in [first[1], second[1], winner.fd, winner.newcomerWriteEnd, winner.newcomer?.fd ?? -1] where fd >= 0 {
      close(fd)
    }
  }

  @Test("a task for a stopped loop is refused and counted; tasks queued before the stop all run")
  func tasksAfterStopAreRefused() {
    let loop = EventLoop(name: "test.stopped")
    let ran = Atomic<Int>(0)
    let inside = Atomic<Bool>(false)
    #expect(!loop.inLoop)
    for _ in 0..<100 { loop.execute { ran.add(1, ordering: .relaxed) } }
    loop.execute { inside.store(loop.inLoop, ordering: .relaxed) }
    loop.stop()
    #expect(eventually { !loop.execute {} })
    let (count, wasInside) = (ran.load(ordering: .relaxed), inside.load(ordering: .relaxed))
    #expect(count == 100)
    #expect(wasInside)
    let rejected = loop.rejectedTasks.load(ordering: .relaxed)
    #expect(rejected >= 1)
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

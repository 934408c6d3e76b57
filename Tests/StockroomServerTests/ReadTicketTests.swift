import Dispatch
import StockroomEngine
import StockroomProtocol
import StockroomTransport
import Synchronization
import Testing

@testable import StockroomServer

/// A reply that reads history is written on the history pool, never on the loop that asked, and
/// the loop hears once it is there; a full pool says so at once.
@Suite(.timeLimit(.minutes(30))) struct ReadTicketTests {
  /// Where the body ran and where `done` ran, as seen by the loop and the pool.
  private struct Seen: Sendable {
    var bodyOnLoop: Bool?
    var doneOnLoop: Bool?
  }

  @Test("the body runs on a pool thread, not the loop; done runs on the loop with the reply written")
  func writesOnAPoolThread() {
    let loop = EventLoop(name: "test.read")
    defer { loop.stop() }
    let pool = JobPool(name: "test-history", threads: 1, capacity: 4, starter: NamedThreadStarter())
    defer { pool.shutdown() }
    let seen = Mutex(Seen())
    let done = DispatchSemaphore(value: 0)
    let ticket = ReadTicket { out in
      seen.withLock { $0.bodyOnLoop = loop.inLoop }
      out.ok("read")
    }
    loop.execute {
      ticket.run(on: loop, pool: pool) {
        seen.withLock { $0.doneOnLoop = loop.inLoop }
        done.signal()
      }
    }
    #expect(done.wait(timeout: .now() + 10) == .success)
    #expect(seen.withLock { $0.bodyOnLoop } == false)
    #expect(seen.withLock { $0.doneOnLoop } == true)
    guard case .written(let bytes) = ticket.result else {
      Issue.record("expected a written reply, got \(String(describing: ticket.result))")
      return
    }
    #expect(String(decoding: bytes, as: UTF8.self) == "OK read\n")
    // The pool counts a job once it has returned, which can be after `done` ran on the loop:
    // its threads have exited once shutdown returns, and the count is final.
    pool.shutdown()
    #expect(pool.counters.completed == 1)
  }

  @Test("a full pool answers busy at once, on the loop, without running the body")
  func fullPoolIsBusy() {
    let loop = EventLoop(name: "test.busy")
    defer { loop.stop() }
    // No room to queue: a job waits in the queue even for a free thread, so nothing is taken.
    let pool = JobPool(name: "test-history", threads: 1, capacity: 0, starter: NamedThreadStarter())
    let ran = Mutex(false)
    let done = DispatchSemaphore(value: 0)
    let doneOnLoop = Mutex<Bool?>(nil)
    let ticket = ReadTicket { _ in ran.withLock { $0 = true } }
    ticket.run(on: loop, pool: pool) {
      doneOnLoop.withLock { $0 = loop.inLoop }
      done.signal()
    }
    #expect(done.wait(timeout: .now() + 10) == .success)
    #expect(doneOnLoop.withLock { $0 } == true)
    guard case .busy = ticket.result else {
      Issue.record("expected busy, got \(String(describing: ticket.result))")
      return
    }
    #expect(!ran.withLock { $0 })
    pool.shutdown()
  }

  @Test("a body that throws leaves its error for the loop to answer")
  func failureIsKept() {
    let loop = EventLoop(name: "test.fail")
    defer { loop.stop() }
    let pool = JobPool(name: "test-history", threads: 1, capacity: 4, starter: NamedThreadStarter())
    defer { pool.shutdown() }
    let done = DispatchSemaphore(value: 0)
    let ticket = ReadTicket { out in
      out.beginRow("half")
      throw ProtocolError(.notFound, "gone")
    }
    ticket.run(on: loop, pool: pool) { done.signal() }
    #expect(done.wait(timeout: .now() + 10) == .success)
    guard case .failed(let error as ProtocolError) = ticket.result else {
      Issue.record("expected a failure, got \(String(describing: ticket.result))")
      return
    }
    #expect(error.code == .notFound)
  }
}

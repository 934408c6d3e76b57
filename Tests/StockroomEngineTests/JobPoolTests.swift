import Dispatch
import Foundation
import StockroomEngine
import StockroomSecurity
import Synchronization
import Testing

@testable import StockroomEngineHarness

@Suite(.timeLimit(.minutes(30))) struct JobPoolTests {
  /// Every job accepted runs exactly once, and a full queue refuses at once. The workers are held
  /// inside their first jobs by a semaphore, so the queue fills deterministically: no sleeps.
  @Test func runsEachAcceptedJobOnceAndRefusesPastCapacity() {
    let pool = JobPool(threads: 2, capacity: 3, starter: HarnessThreadStarter())
    let started = DispatchSemaphore(value: 0)
    let gate = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    let runs = Mutex([Int](repeating: 0, count: 6))

    for index in 0..<2 {
      let accepted = pool.submit {
        started.signal()
        gate.wait()
        runs.withLock { $0[index] += 1 }
        finished.signal()
      }
      #expect(accepted)
    }
    // Both threads are now inside a job, so what comes next can only wait in the queue.
    for _ in 0..<2 { #expect(started.wait(timeout: .now() + 10) == .success) }
    #expect(pool.counters == JobPool.Counters(queued: 0, running: 2, completed: 0, refused: 0))

    for index in 2..<5 {
      #expect(
        pool.submit {
          runs.withLock { $0[index] += 1 }
          finished.signal()
        })
    }
    #expect(!pool.submit { runs.withLock { $0[5] += 1 } })
    #expect(pool.counters == JobPool.Counters(queued: 3, running: 2, completed: 0, refused: 1))

    gate.signal()
    gate.signal()
    for _ in 0..<5 { #expect(finished.wait(timeout: .now() + 10) == .success) }
    pool.shutdown()
    #expect(runs.withLock { $0 } == [1, 1, 1, 1, 1, 0])
    #expect(pool.counters == JobPool.Counters(queued: 0, running: 0, completed: 5, refused: 1))
    // A pool that has shut down takes nothing more.
    #expect(!pool.submit {})
    #expect(pool.counters.refused == 2)
  }

  /// Shutting down lets every queued job run before the threads end.
  @Test func shutdownRunsWhatWasQueued() {
    let pool = JobPool(threads: 1, capacity: 64, starter: HarnessThreadStarter())
    let count = Mutex(0)
    var accepted = 0
    for _ in 0..<64 where pool.submit({ count.withLock { $0 += 1 } }) { accepted += 1 }
    pool.shutdown()
    #expect(accepted == 64)
    #expect(count.withLock { $0 } == 64)
    #expect(pool.counters.completed == 64)
  }

  /// Shutting down waits for a job already running (a history read held up by the database)
  /// to return, refuses what comes after, and a second shutdown returns at once.
  @Test func shutdownWaitsForARunningJobAndRefusesAfter() throws {
    let pool = JobPool(name: "test-history", threads: 1, capacity: 1, starter: HarnessThreadStarter())
    let started = DispatchSemaphore(value: 0)
    let gate = DispatchSemaphore(value: 0)
    let returned = Mutex(false)
    #expect(
      pool.submit {
        started.signal()
        gate.wait()
        returned.withLock { $0 = true }
      })
    #expect(started.wait(timeout: .now() + 10) == .success)
    let stopped = DispatchSemaphore(value: 0)
    // Whether the job had returned when shutdown() did: it must have, whenever shutdown returns.
    let jobDoneAtStop = Mutex<Bool?>(nil)
    Thread.detachNewThread {
      pool.shutdown()
      jobDoneAtStop.withLock { $0 = returned.withLock { $0 } }
      stopped.signal()
    }
    // The shutdown is under way while the job still runs; only then is the job let go.
    try waitUntil { pool.isShuttingDown }
    gate.signal()
    #expect(stopped.wait(timeout: .now() + 10) == .success)
    #expect(jobDoneAtStop.withLock { $0 } == true, "shutdown returned before the running job did")
    #expect(!pool.submit {})
    pool.shutdown()
    #expect(pool.counters == JobPool.Counters(queued: 0, running: 0, completed: 1, refused: 1))
  }

  /// A job whose end lets the engine go shuts the pool down from one of its own threads: the
  /// shutdown waits for the other threads, not for its own, which ends once the job returns.
  /// It used to wait for itself for ever, and with it the engine's teardown and the shop's lock.
  @Test func shutdownFromItsOwnJobDoesNotWaitForItself() throws {
    let pool = JobPool(name: "test-own", threads: 2, capacity: 4, starter: HarnessThreadStarter())
    let returned = DispatchSemaphore(value: 0)
    #expect(
      pool.submit {
        pool.shutdown()
        returned.signal()
      })
    #expect(returned.wait(timeout: .now() + 60) == .success, "shutdown from a pool job waited for itself")
    #expect(!pool.submit {})
    try waitUntil { pool.counters.completed == 1 }
    #expect(pool.counters == JobPool.Counters(queued: 0, running: 0, completed: 1, refused: 1))
  }

  /// The use it is made for: a verification on a pool thread answers as one on the caller's would.
  @Test func verifiesOnAPoolThread() throws {
    let pool = JobPool(starter: HarnessThreadStarter())
    let hash = try PasswordHash.make(Password("pool password"))
    let answers = Mutex([Bool]())
    let done = DispatchSemaphore(value: 0)
    for attempt in ["pool password", "pool passwore"] {
      let password = Password(attempt)
      #expect(
        pool.submit {
          let verified = PasswordHash.verify(hash, password)
          answers.withLock { $0.append(verified) }
          done.signal()
        })
    }
    for _ in 0..<2 { #expect(done.wait(timeout: .now() + 30) == .success) }
    pool.shutdown()
    #expect(answers.withLock { $0.sorted { !$0 && $1 } } == [false, true])
  }
}

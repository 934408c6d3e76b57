import Dispatch
import Foundation
import StockroomEngine
import StockroomSystem
import Synchronization
import Testing

@testable import StockroomEngineHarness

/// The credential pool's fairness by address on its own (`JobPool`, issue 20, item 1).
@Suite("The job pool shared fairly by address", .timeLimit(.minutes(30)))
struct JobPoolFairnessTests {
  static func source(_ host: String) -> ShareKey {
    .address(PeerSource(bytes: host.split(separator: ".").compactMap { UInt8($0) }))
  }

  /// The penalties the pools below see, as `LoginThrottle.penalty` would give them.
  static let penalties: [ShareKey: Int] = [
    source("127.0.0.1"): 9, source("127.0.0.3"): 2, source("127.0.0.4"): 9, source("127.0.0.5"): 5,
  ]

  /// A pool of one thread held by a job until `release` is signalled.
  private func heldPool(capacity: Int) -> (JobPool, DispatchSemaphore) {
    let pool = JobPool(name: "test.fair", threads: 1, capacity: capacity, starter: HarnessThreadStarter()) {
      Self.penalties[$0] ?? 0
    }
    let release = DispatchSemaphore(value: 0)
    let started = DispatchSemaphore(value: 0)
    _ = pool.submit {
      started.signal()
      release.wait()
    }
    started.wait()
    return (pool, release)
  }

  @Test(
    "a waiting job of a host without failures runs before those of failing hosts, then by fewest running, then oldest")
  func order() {
    let (pool, release) = heldPool(capacity: 8)
    defer { pool.shutdown() }
    let ran = Mutex<[String]>([])
    let done = DispatchGroup()
    for (name, host) in [
      ("flood-1", "127.0.0.1"), ("flood-2", "127.0.0.1"), ("other", "127.0.0.3"), ("clean", "127.0.0.2"),
    ] {
      done.enter()
      let accepted = pool.submit(
        from: Self.source(host),
        {
          ran.withLock { $0.append(name) }
          done.leave()
          return .done
        }, displaced: nil)
      #expect(accepted)
    }
    release.signal()
    done.wait()
    #expect(ran.withLock { $0 } == ["clean", "other", "flood-1", "flood-2"])
  }

  @Test("a full queue takes a clean host's job in place of a failing host's newest; never of the same host's")
  func displacement() {
    let (pool, release) = heldPool(capacity: 2)
    defer { pool.shutdown() }
    let fates = Fates()
    func submit(_ name: String, _ host: String) -> Bool { offer(name, host, to: pool, fates) }
    #expect(submit("flood-1", "127.0.0.5"))
    #expect(submit("flood-2", "127.0.0.5"))
    #expect(!submit("flood-3", "127.0.0.5"), "the same host displaces none of its own")
    #expect(submit("clean", "127.0.0.2"))
    #expect(fates.told.withLock { $0 } == ["flood-2"])
    #expect(!submit("worse", "127.0.0.4"), "a host failing more displaces no one")
    release.signal()
    fates.settled.wait()
    #expect(fates.ran.withLock { $0 } == ["clean", "flood-1"])
  }

  /// Runs `count` jobs of `host` to the end, each saying `outcome`: work done lately (and a
  /// vouch, for `.vouched`) in the pool's ledger.
  private func ran(_ count: Int, of host: String, saying outcome: JobPool.Outcome = .done, on pool: JobPool) throws {
    for _ in 0..<count {
      let before = pool.counters.completed
      let accepted = pool.submit(from: Self.source(host), { outcome }, displaced: nil)
      #expect(accepted)
      // Counted once the pool has the job back, after the job itself returned.
      try waitUntil(timeout: 60) { pool.counters.completed == before + 1 }
    }
  }

  /// A pool of one thread, fresh: `hold` blocks the thread in a job of no one until the
  /// returned semaphore is signalled.
  private func hold(_ pool: JobPool) -> DispatchSemaphore {
    let release = DispatchSemaphore(value: 0)
    let started = DispatchSemaphore(value: 0)
    _ = pool.submit {
      started.signal()
      release.wait()
    }
    started.wait()
    return release
  }

  /// What became of the jobs `offer` submitted.
  private final class Fates: Sendable {
    let ran = Mutex<[String]>([])
    let told = Mutex<[String]>([])
    let settled = DispatchGroup()
  }

  /// Submits a job of `host` named `name`, recording in `fates` whether it ran or was displaced.
  private func offer(_ name: String, _ host: String, to pool: JobPool, _ fates: Fates) -> Bool {
    fates.settled.enter()
    let accepted = pool.submit(
      from: Self.source(host),
      {
        fates.ran.withLock { $0.append(name) }
        fates.settled.leave()
        return .done
      },
      displaced: {
        fates.told.withLock { $0.append(name) }
        fates.settled.leave()
      })
    if !accepted { fates.settled.leave() }
    return accepted
  }

  /// Work done lately ranks a host, whether it was plain work or checks that vouched for it:
  /// trust lets a host go ahead of fresh hosts (`vouchedGoesAhead`), not ahead of its own use.
  @Test(
    "work done lately counts, successes and vouched checks too: a host that ran many yields its place to one that ran none",
    arguments: [(10, JobPool.Outcome.done), (20, .vouched)])
  func workDoneCounts(runs: Int, outcome: JobPool.Outcome) throws {
    let pool = JobPool(name: "test.work", threads: 1, capacity: 2, starter: HarnessThreadStarter())
    defer { pool.shutdown() }
    try ran(runs, of: "127.0.0.7", saying: outcome, on: pool)
    let release = hold(pool)
    let fates = Fates()
    #expect(offer("busy", "127.0.0.7", to: pool, fates))
    #expect(offer("other", "127.0.0.8", to: pool, fates))
    #expect(offer("newcomer", "127.0.0.9", to: pool, fates), "the newcomer was refused")
    #expect(fates.told.withLock { $0 } == ["busy"], "not the host that did most")
    release.signal()
    fates.settled.wait()
    #expect(fates.ran.withLock { $0 } == ["other", "newcomer"])
  }

  @Test("a host vouched for by a passed check goes ahead of fresh hosts that fill the queue")
  func vouchedGoesAhead() throws {
    let pool = JobPool(name: "test.trust", threads: 1, capacity: 2, starter: HarnessThreadStarter())
    defer { pool.shutdown() }
    try ran(1, of: "127.0.0.7", saying: .vouched, on: pool)
    let release = hold(pool)
    let fates = Fates()
    #expect(offer("fresh-1", "127.1.0.1", to: pool, fates))
    #expect(offer("fresh-2", "127.1.0.2", to: pool, fates))
    #expect(!offer("fresh-3", "127.1.0.3", to: pool, fates), "fresh hosts are alike")
    #expect(offer("known", "127.0.0.7", to: pool, fates), "the known host was refused")
    #expect(fates.told.withLock { $0 } == ["fresh-2"])
    release.signal()
    fates.settled.wait()
    #expect(fates.ran.withLock { $0 } == ["known", "fresh-1"])
  }
}

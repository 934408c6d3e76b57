import Dispatch
import Foundation
import StockroomEngine
import StockroomSystem
import Synchronization
import Testing

@testable import StockroomServer

/// The credential pool's fairness by address on its own (`JobPool`, issue 20, item 1).
@Suite("The job pool shared fairly by address")
struct JobPoolFairnessTests {
  static func source(_ host: String) -> PeerSource { PeerSource(SocketAddress(host: host, port: 1)!) }

  /// The penalties the pools below see, as `LoginThrottle.penalty` would give them.
  static let penalties: [PeerSource: Int] = [
    source("127.0.0.1"): 9, source("127.0.0.3"): 2, source("127.0.0.4"): 9, source("127.0.0.5"): 5,
  ]

  /// A pool of one thread held by a job until `release` is signalled.
  private func heldPool(capacity: Int) -> (JobPool, DispatchSemaphore) {
    let pool = JobPool(name: "test.fair", threads: 1, capacity: capacity, starter: NamedThreadStarter()) {
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
    let told = Mutex<[String]>([])
    let ran = Mutex<[String]>([])
    let settled = DispatchGroup()
    func submit(_ name: String, _ host: String) -> Bool {
      settled.enter()
      let accepted = pool.submit(
        from: Self.source(host),
        {
          ran.withLock { $0.append(name) }
          settled.leave()
        },
        displaced: {
          told.withLock { $0.append(name) }
          settled.leave()
        })
      if !accepted { settled.leave() }
      return accepted
    }
    #expect(submit("flood-1", "127.0.0.5"))
    #expect(submit("flood-2", "127.0.0.5"))
    #expect(!submit("flood-3", "127.0.0.5"), "the same host displaces none of its own")
    #expect(submit("clean", "127.0.0.2"))
    #expect(told.withLock { $0 } == ["flood-2"])
    #expect(!submit("worse", "127.0.0.4"), "a host failing more displaces no one")
    release.signal()
    settled.wait()
    #expect(ran.withLock { $0 } == ["clean", "flood-1"])
  }
}

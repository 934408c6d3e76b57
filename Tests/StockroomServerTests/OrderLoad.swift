import Foundation
import Synchronization
import Testing

/// Clients ordering through the nodes of a shared store until told to stop, for the tests that
/// take the database away under load: the order ids acknowledged, and the orders answered
/// `UNAVAILABLE` (each followed by a short pause, as a client retrying would). Any other answer
/// fails the test.
final class OrderLoad: Sendable {
  private let acknowledged = Mutex<[Int]>([])
  private let unavailableCount = Atomic<Int>(0)
  private let stopping = Atomic<Bool>(false)
  private let finished = Atomic<Bool>(false)

  /// Starts `clients` connections, taking turns over `ports`, each sending `line` again and
  /// again; `seconds` bounds the whole run.
  init(clients: Int, ports: [UInt16], ordering line: String, seconds: Int) {
    let thread = Thread { [self] in
      together(clients, seconds: seconds) { [self] index in
        let client = try PostgresShop.client(ports[index % ports.count])
        while !stopping.load(ordering: .relaxed) {
          let reply = try client.request(line)
          if reply.isOK {
            acknowledged.withLock { $0.append(Int(reply.statusFields["order"]!)!) }
          } else if reply.errorCode == .unavailable {
            unavailableCount.add(1, ordering: .relaxed)
            usleep(20_000)
          } else {
            throw LineClient.Failure(description: "\(reply.lines)")
          }
        }
      }
      finished.store(true, ordering: .releasing)
    }
    thread.start()
  }

  /// Orders answered `UNAVAILABLE` so far.
  var unavailable: Int { unavailableCount.load(ordering: .relaxed) }

  /// Waits until `more` orders beyond those acknowledged now are acknowledged.
  func waitForMore(_ more: Int, timeout: TimeInterval, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let before = acknowledged.withLock { $0.count }
    try waitUntil(timeout: timeout, sourceLocation: sourceLocation) {
      acknowledged.withLock { $0.count } >= before + more
    }
  }

  /// Stops every client, waits for them, and returns the order ids acknowledged, in the order
  /// their replies arrived.
  func stop() -> [Int] {
    stopping.store(true, ordering: .relaxed)
    while !finished.load(ordering: .acquiring) { usleep(10_000) }
    return acknowledged.withLock { $0 }
  }
}

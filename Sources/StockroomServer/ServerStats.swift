import Foundation
import Synchronization

/// Counters INFO reports; atomics so no request waits on another to count itself.
final class ServerStats: Sendable {
  let started = Date()
  let connectedClients = Atomic<Int>(0)
  let totalConnections = Atomic<Int>(0)
  let commandsServed = Atomic<Int>(0)
  /// LOGIN and PASSWD attempts that gave a wrong name or password.
  let failedLogins = Atomic<Int>(0)
  let rejectedConnections = Atomic<Int>(0)

  var uptimeSeconds: Int { Int(Date().timeIntervalSince(started)) }
}

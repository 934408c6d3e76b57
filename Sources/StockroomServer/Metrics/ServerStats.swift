import Foundation
import Synchronization

/// Counters INFO and the metrics report; atomics so no request waits on another to count itself.
final class ServerStats: Sendable {
  let started = Date()
  let connectedClients = Atomic<Int>(0)
  let totalConnections = Atomic<Int>(0)
  let commandsServed = Atomic<Int>(0)
  /// LOGIN and PASSWD attempts that gave a wrong name or password.
  let failedLogins = Atomic<Int>(0)
  let rejectedConnections = Atomic<Int>(0)
  let commands = CommandCounts()
  /// Requests refused with ERR SHORTAGE.
  let shortages = Atomic<Int>(0)
  /// Events a watcher never got because it fell too far behind (and was disconnected).
  let eventsDropped = Atomic<Int>(0)
  /// Connections closed for not reading: output past the hard limit, or a watcher far behind.
  let slowConsumerDisconnects = Atomic<Int>(0)

  var uptimeSeconds: Int { Int(Date().timeIntervalSince(started)) }
}

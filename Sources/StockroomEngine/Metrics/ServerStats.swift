import Foundation
import Synchronization

/// Counters INFO and the metrics report; atomics so no request waits on another to count itself.
package final class ServerStats: Sendable {
  package let started = Date()
  package let connectedClients = Atomic<Int>(0)
  package let totalConnections = Atomic<Int>(0)
  package let commandsServed = Atomic<Int>(0)
  /// LOGIN and PASSWD attempts that gave a wrong name or password.
  package let failedLogins = Atomic<Int>(0)
  package let rejectedConnections = Atomic<Int>(0)
  package let commands = CommandCounts()
  /// Requests refused with ERR SHORTAGE.
  package let shortages = Atomic<Int>(0)
  /// Events a watcher never got because it fell too far behind (and was disconnected).
  package let eventsDropped = Atomic<Int>(0)
  /// Connections closed for not reading: output past the hard limit, or a watcher far behind.
  package let slowConsumerDisconnects = Atomic<Int>(0)

  package var uptimeSeconds: Int { Int(Date().timeIntervalSince(started)) }

  package init() {}
}

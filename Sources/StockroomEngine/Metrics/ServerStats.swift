import Foundation
import Synchronization

/// Counters INFO and the metrics report; atomics so no request waits on another to count itself.
package final class ServerStats: Sendable {
  /// When the server started, as the metrics page reports it (seconds since the epoch).
  package let started: Date
  /// The same moment on the clock's monotonic side, which uptime is measured from, so that a
  /// step of the wall clock does not move it.
  private let startedAt: UInt64
  private let clock: any EngineClock
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

  package var uptimeSeconds: Int { Int(clock.elapsed(since: startedAt).components.seconds) }

  package init(clock: any EngineClock = MonotonicEngineClock()) {
    self.clock = clock
    started = clock.wallTime()
    startedAt = clock.now()
  }
}

import Foundation

/// Where the engine, and the change paths built on it, read the time: the login throttle's
/// waits and penalties, how long a commit or a check took, when housekeeping is due, and the
/// wall-clock time an order, a ledger entry or an account is stamped with. A server reads the
/// monotonic clock and the system's wall clock (`MonotonicEngineClock`); the engine's test
/// harness reads a clock the test moves, so a throttled login is answered when the test says
/// and not after a real wait. (A connection's deadlines are the transport's: it passes `now`.)
package protocol EngineClock: Sendable {
  /// Nanoseconds on a clock that only moves forward, from an arbitrary start.
  func now() -> UInt64
  /// The wall-clock time, for what is stamped with a date a person reads (an order's, a ledger
  /// entry's); never for measuring a wait, which a step of the wall clock would stretch.
  func wallTime() -> Date
}

extension EngineClock {
  /// How long since `start`, an earlier reading of `now()`.
  package func elapsed(since start: UInt64) -> Duration {
    .nanoseconds(Int64(now() &- start))
  }
}

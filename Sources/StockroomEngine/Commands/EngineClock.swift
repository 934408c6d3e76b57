/// Where the engine reads the time for what it times itself: the login throttle's waits and
/// penalties. A server reads the monotonic clock (`MonotonicEngineClock`); the engine's test
/// harness reads a clock the test moves, so a throttled login is answered when the test says
/// and not after a real wait. (A connection's deadlines are the transport's: it passes `now`.)
package protocol EngineClock: Sendable {
  /// Nanoseconds on a clock that only moves forward, from an arbitrary start.
  func now() -> UInt64
}

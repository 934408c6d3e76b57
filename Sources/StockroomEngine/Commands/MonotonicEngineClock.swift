import StockroomSystem

/// The engine's time in a server: `MonotonicClock`, which a wall-clock step does not move.
package struct MonotonicEngineClock: EngineClock {
  package init() {}

  package func now() -> UInt64 { MonotonicClock.now() }
}

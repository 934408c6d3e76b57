import Foundation
import StockroomSystem

/// The engine's time in a server: `MonotonicClock`, which a wall-clock step does not move, for
/// waits and durations, and the system's wall clock for dates.
package struct MonotonicEngineClock: EngineClock {
  package init() {}

  package func now() -> UInt64 { MonotonicClock.now() }

  package func wallTime() -> Date { Date() }
}

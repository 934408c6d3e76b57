import Foundation
import StockroomEngine
import Synchronization

/// The engine harness's time, in the manner of SwiftNIO's `EmbeddedEventLoop`: it stands still
/// until the test moves it (`advance`), and what was scheduled for later (a throttled login's
/// check) runs only then, on the test's thread. So a test of a wait says how long it is to the
/// nanosecond, without sleeping, and a loaded machine cannot make it early or late. A test that
/// does not care how long is not made to say: a read that would wait for an answer moves the
/// clock to the next timer instead (`advanceToNextTimer`), as a simulation skips idle time.
final class ManualClock: EngineClock {
  private struct Timer {
    /// The channel the task is for: its timers go when it closes.
    let owner: Int
    let deadline: UInt64
    let sequence: Int
    let task: @Sendable () -> Void
  }

  private struct State {
    /// Not zero: the throttle measures from its records' last failure, and a real clock has
    /// long left zero behind too.
    var now: UInt64 = 3_600_000_000_000
    var timers: [Timer] = []
    var sequence = 0
  }

  private let state = Mutex(State())

  func now() -> UInt64 { state.withLock { $0.now } }

  /// The system's: the harness moves waits, not the dates orders and entries are stamped with.
  func wallTime() -> Date { Date() }

  /// Runs `task` for channel `owner` once the clock has been moved `delay` on.
  func schedule(after delay: Duration, for owner: Int, _ task: @escaping @Sendable () -> Void) {
    state.withLock { state in
      state.sequence += 1
      state.timers.append(
        Timer(owner: owner, deadline: state.now + delay.nanoseconds, sequence: state.sequence, task: task))
    }
  }

  /// Drops what channel `owner` still had scheduled, as a loop drops a closed connection's
  /// timers. A task holds its channel (a throttled LOGIN's check holds the connection it
  /// answers), and so the engine: one kept until a clock the test never moves would keep the
  /// engine and its files (a restart's lock) for ever.
  func cancel(for owner: Int) {
    // Released after the lock: a task's captures may hand work back here as they go.
    _ = state.withLock { state in
      let dropped = state.timers.filter { $0.owner == owner }
      state.timers.removeAll { $0.owner == owner }
      return dropped
    }
  }

  /// Moves the clock on by `duration`, and runs what has come due, soonest first.
  func advance(by duration: Duration) {
    let due = state.withLock { state -> [Timer] in
      state.now += duration.nanoseconds
      let now = state.now
      let due = state.timers.filter { $0.deadline <= now }
      state.timers.removeAll { $0.deadline <= now }
      return due.sorted { ($0.deadline, $0.sequence) < ($1.deadline, $1.sequence) }
    }
    for timer in due { timer.task() }
  }

  /// Moves the clock to the soonest timer and runs what is then due; false, and the clock
  /// stays, when nothing is scheduled.
  func advanceToNextTimer() -> Bool {
    let wait = state.withLock { state in
      state.timers.map(\.deadline).min().map { $0 > state.now ? $0 - state.now : 0 }
    }
    guard let wait else { return false }
    advance(by: .nanoseconds(wait))
    return true
  }

  /// Timers not yet due.
  var scheduled: Int { state.withLock { $0.timers.count } }
}

extension Duration {
  /// The duration in whole nanoseconds, as the engine counts time.
  fileprivate var nanoseconds: UInt64 {
    UInt64(components.seconds) * 1_000_000_000 + UInt64(components.attoseconds / 1_000_000_000)
  }
}

import Dispatch
import StockroomSystem
import Synchronization

/// Where the main thread and the connection threads meet: at the start, so that connecting is
/// never measured and every connection shares one window; while measuring a fixed number of
/// requests, to share them out; and at the end, to note when the last request was answered and
/// to hand in tallies.
final class RunControl: Sendable {
  private let ready = DispatchSemaphore(value: 0)
  private let go = DispatchSemaphore(value: 0)
  private let finished = DispatchGroup()
  private let departed = DispatchGroup()
  private let window = Mutex<(start: UInt64, end: UInt64)>((0, 0))
  private let tallies = Mutex<WorkerTally>(WorkerTally())
  /// Requests not yet claimed, when the run measures a fixed number; nil when it measures time.
  private let budget: Mutex<Int?>
  private let remaining = Mutex(0)
  private let ending = Mutex<(time: UInt64, cpuTicks: Int?)?>(nil)
  private let server: ServerProcess?

  init(requests: Int?, server: ServerProcess?) {
    budget = Mutex(requests)
    self.server = server
  }

  /// Counted before the thread starts, so that `collect` cannot finish ahead of a slow starter.
  func enlist() {
    finished.enter()
    departed.enter()
    remaining.withLock { $0 += 1 }
  }

  /// Says this connection is ready, waits for the others, and returns the measured window.
  func arrive() -> (start: UInt64, end: UInt64) {
    ready.signal()
    go.wait()
    return window.withLock { $0 }
  }

  /// Says this connection will not take part, so nobody waits for it.
  func withdraw() {
    ready.signal()
    depart(until: nil)
  }

  /// Takes `count` requests from a fixed budget; false once it is spent (always true when the
  /// run measures time instead).
  func claim(_ count: Int) -> Bool {
    budget.withLock { left in
      guard let available = left else { return true }
      guard available > 0 else { return false }
      left = available - count
      return true
    }
  }

  /// Says this connection has had its last reply. The last one to say so notes the time and the
  /// server's CPU; every one then waits (until `deadline`, a monotonic time) for the others
  /// before closing its socket, so that no server's work on closing is counted.
  func depart(until deadline: UInt64?) {
    let last = remaining.withLock { count in
      count -= 1
      return count == 0
    }
    if last {
      let ticks = try? server?.cpuTicks()
      let now = MonotonicClock.now()
      ending.withLock { $0 = (now, ticks) }
    }
    departed.leave()
    guard let deadline else { return }
    let wait = deadline - min(deadline, MonotonicClock.now())
    _ = departed.wait(timeout: .now() + .nanoseconds(Int(min(wait, UInt64(Int.max)))))
  }

  /// When the last connection departed, and the server's CPU ticks then.
  var end: (time: UInt64, cpuTicks: Int?)? {
    ending.withLock { $0 }
  }

  func report(_ tally: WorkerTally) {
    tallies.withLock { $0.merge(tally) }
    finished.leave()
  }

  /// Waits (up to `patience` seconds) for `runners` connections, then opens a window that
  /// starts after `warmup` seconds and lasts `duration`.
  func release(runners: Int, warmup: Double, duration: Double, patience: Double) -> (
    start: UInt64, end: UInt64
  ) {
    let deadline = DispatchTime.now() + patience
    for _ in 0..<runners {
      if ready.wait(timeout: deadline) == .timedOut { break }
    }
    let start = MonotonicClock.now() + UInt64(warmup * 1e9)
    let opened = (start: start, end: start + UInt64(duration * 1e9))
    window.withLock { $0 = opened }
    // Latecomers past the deadline still find a signal waiting and join the window late.
    for _ in 0..<runners { go.signal() }
    return opened
  }

  /// Every tally handed in by `deadline`, or nil if some connection is still running.
  func collect(by deadline: DispatchTime) -> WorkerTally? {
    guard finished.wait(timeout: deadline) == .success else { return nil }
    return tallies.withLock { $0 }
  }
}

import Dispatch
import Synchronization

/// Where the main thread and the connection threads meet: at the start, so that connecting is
/// never measured and every connection shares one window, and at the end, to hand in tallies.
final class RunControl: Sendable {
  private let ready = DispatchSemaphore(value: 0)
  private let go = DispatchSemaphore(value: 0)
  private let finished = DispatchGroup()
  private let window = Mutex<(start: UInt64, end: UInt64)>((0, 0))
  private let tallies = Mutex<WorkerTally>(WorkerTally())

  /// Counted before the thread starts, so that `collect` cannot finish ahead of a slow starter.
  func enlist() {
    finished.enter()
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

import Dispatch
import Foundation
import Synchronization

/// A few threads of their own for work that must not stall an event loop serving other
/// connections: making and checking password hashes (a tenth of a second and 64 MiB each), and
/// reading history from the database (STOCKTAKE, older orders, a keyed order's receipt).
///
/// The queue is bounded: a flood of logins or reads waits in at most `capacity` jobs, and past
/// that `submit` says no at once and the caller answers "busy", rather than memory and latency
/// growing without end. The threads are few for the same reason: each password job holds 64 MiB.
final class JobPool: Sendable {
  /// What the pool has done, for tests and INFO.
  struct Counters: Sendable, Equatable {
    /// Jobs accepted and waiting for a thread.
    var queued = 0
    /// Jobs a thread is running now.
    var running = 0
    /// Jobs that have returned.
    var completed = 0
    /// Jobs `submit` turned away: the queue was full or the pool shut down.
    var refused = 0
  }

  private struct State {
    var jobs: [@Sendable () -> Void] = []
    var counters = Counters()
    var stopping = false
  }

  let threads: Int
  let capacity: Int
  private let state = Mutex(State())
  /// One signal per job queued, and one per thread at shutdown: a thread sleeps here until
  /// there is something for it.
  private let available = DispatchSemaphore(value: 0)
  /// One signal per thread as it ends, for `shutdown` to wait on.
  private let exited = DispatchSemaphore(value: 0)

  /// Starts `threads` threads at once, named `name-1`, `name-2`…; `capacity` is how many jobs
  /// may wait for them.
  init(name: String = "jobs", threads: Int = 2, capacity: Int = 64) {
    precondition(threads >= 1 && capacity >= 0, "a job pool needs a thread and a capacity of zero or more")
    self.threads = threads
    self.capacity = capacity
    for number in 1...threads {
      let thread = Thread { [self] in work() }
      thread.name = "\(name)-\(number)"
      thread.start()
    }
  }

  /// Queues `job` for a thread; false, without running it, when `capacity` jobs are already
  /// waiting or the pool has shut down.
  func submit(_ job: @escaping @Sendable () -> Void) -> Bool {
    let accepted = state.withLock { state in
      guard !state.stopping, state.jobs.count < capacity else {
        state.counters.refused += 1
        return false
      }
      state.jobs.append(job)
      state.counters.queued += 1
      return true
    }
    if accepted { available.signal() }
    return accepted
  }

  var counters: Counters {
    state.withLock { $0.counters }
  }

  /// Whether `shutdown` has begun: from then on `submit` refuses. Lets a test see the shutdown
  /// under way before it lets a running job go.
  var isShuttingDown: Bool {
    state.withLock { $0.stopping }
  }

  /// Refuses new jobs, lets the queued ones run, and returns when every thread has ended.
  /// Must not be called from one of the pool's own jobs, which would wait for itself.
  func shutdown() {
    let first = state.withLock { state in
      defer { state.stopping = true }
      return !state.stopping
    }
    guard first else { return }
    for _ in 0..<threads { available.signal() }
    for _ in 0..<threads { exited.wait() }
  }

  /// A thread's life: take the oldest job, run it outside the lock, until shut down with
  /// nothing left to run.
  private func work() {
    while true {
      available.wait()
      let next: (@Sendable () -> Void)? = state.withLock { state in
        guard !state.jobs.isEmpty else { return nil }
        state.counters.queued -= 1
        state.counters.running += 1
        return state.jobs.removeFirst()
      }
      // Each signal is either a job queued or a thread told to stop, and jobs are always taken
      // first, so finding none means this thread's stop.
      guard let job = next else { break }
      job()
      state.withLock { state in
        state.counters.running -= 1
        state.counters.completed += 1
      }
    }
    exited.signal()
  }
}

import Foundation
import StockroomSystem
import Synchronization

/// A few threads of their own for work that must not stall an event loop serving other
/// connections: making and checking password hashes (a tenth of a second and 64 MiB each), and
/// reading history from the database (STOCKTAKE, older orders, a keyed order's receipt).
///
/// The queue is bounded: a flood of logins or reads waits in at most `capacity` jobs, and past
/// that `submit` says no at once and the caller answers "busy", rather than memory and latency
/// growing without end. The threads are few for the same reason: each password job holds 64 MiB.
///
/// Jobs may say which address they are for, so that the pool is shared fairly: password work
/// from an address flooding the server must not keep anyone else's out (issue 20). A thread takes
/// the waiting job with the lowest penalty (what `penalty` says of its address when the thread
/// looks, so a job queued before its address started failing yields too), then the one whose
/// address has the fewest jobs running, then the oldest. When the queue is full, a new job takes
/// the place of the newest waiting job of an address with a higher penalty, or, at the same
/// penalty, of an address holding more jobs than the newcomer's; that job is told it was
/// displaced. So a host with no failed logins gets in ahead of hosts that have been failing,
/// however many of them there are, and no one address fills the queue against the others.
package final class JobPool: Sendable {
  /// What the pool has done, for tests and INFO.
  package struct Counters: Sendable, Equatable {
    /// Jobs accepted and waiting for a thread.
    package var queued = 0
    /// Jobs a thread is running now.
    package var running = 0
    /// Jobs that have returned.
    package var completed = 0
    /// Jobs `submit` turned away: the queue was full or the pool shut down.
    package var refused = 0

    package init(queued: Int = 0, running: Int = 0, completed: Int = 0, refused: Int = 0) {
      self.queued = queued
      self.running = running
      self.completed = completed
      self.refused = refused
    }
  }

  private struct Job {
    /// nil: a job of no address (history reads), never ranked against others but by age.
    let source: PeerSource?
    let sequence: UInt64
    let run: @Sendable () -> Void
    /// Told when a newcomer takes the job's place (see above); nil: the job is never displaced.
    let displaced: (@Sendable () -> Void)?
  }

  private struct State {
    var jobs: [Job] = []
    var counters = Counters()
    var stopping = false
    var sequence: UInt64 = 0
    /// Jobs waiting or running, and running, per address.
    var held: [PeerSource: Int] = [:]
    var running: [PeerSource: Int] = [:]

    func held(by source: PeerSource?) -> Int { source.map { held[$0] ?? 0 } ?? 0 }
    func running(for source: PeerSource?) -> Int { source.map { running[$0] ?? 0 } ?? 0 }

    /// The job a thread takes next (see above), with `penalties[i]` job i's penalty now.
    func next(_ penalties: [Int]) -> Int? {
      jobs.indices.min { a, b in
        if penalties[a] != penalties[b] { return penalties[a] < penalties[b] }
        let (rx, ry) = (running(for: jobs[a].source), running(for: jobs[b].source))
        return rx != ry ? rx < ry : jobs[a].sequence < jobs[b].sequence
      }
    }

    /// The waiting job a newcomer from `source` with penalty `own` may take the place of, if any
    /// (see above).
    func displaceable(by source: PeerSource?, own: Int, _ penalties: [Int]) -> Int? {
      let newcomer = held(by: source)
      let candidates = jobs.indices.filter { jobs[$0].displaced != nil && jobs[$0].source != source }
      guard
        let victim = candidates.max(by: { a, b in
          if penalties[a] != penalties[b] { return penalties[a] < penalties[b] }
          let (hx, hy) = (held(by: jobs[a].source), held(by: jobs[b].source))
          return hx != hy ? hx < hy : jobs[a].sequence < jobs[b].sequence
        })
      else { return nil }
      let worse = penalties[victim] > own || (penalties[victim] == own && held(by: jobs[victim].source) > newcomer + 1)
      return worse ? victim : nil
    }

    mutating func count(_ source: PeerSource?, held change: Int, running runningChange: Int = 0) {
      guard let source else { return }
      held[source, default: 0] += change
      if held[source] == 0 { held[source] = nil }
      running[source, default: 0] += runningChange
      if running[source] == 0 { running[source] = nil }
    }
  }

  package let threads: Int
  package let capacity: Int
  private let penalty: (@Sendable (PeerSource) -> Int)?
  private let state = Mutex(State())
  /// One signal per job queued, and one per thread at shutdown: a thread sleeps here until
  /// there is something for it.
  private let available = Semaphore()
  /// Made by the starter the pool was given: the engine starts no thread of its own.
  private let workers: [any WorkerThread]

  /// Starts `threads` threads at once, made by `starter` and named `name-1`, `name-2`… (Linux
  /// keeps 15 bytes of a name); `capacity` is how many jobs may wait for them.
  /// `penalty` ranks the jobs of an address (see above); without it, all rank the same.
  package init(
    name: String = "jobs", threads: Int = 2, capacity: Int = 64, starter: any ThreadStarter,
    penalty: (@Sendable (PeerSource) -> Int)? = nil
  ) {
    precondition(threads >= 1 && capacity >= 0, "a job pool needs a thread and a capacity of zero or more")
    self.threads = threads
    self.capacity = capacity
    self.penalty = penalty
    workers = (1...threads).map { starter.thread(named: "\(name)-\($0)", quality: .default) }
    for worker in workers { worker.start { [self] in work() } }
  }

  /// Queues `job` for a thread; false, without running it, when `capacity` jobs are already
  /// waiting or the pool has shut down.
  package func submit(_ job: @escaping @Sendable () -> Void) -> Bool {
    submit(from: nil, job, displaced: nil)
  }

  /// Queues `job` for `source`, in its turn (see above); false, without running it, when the
  /// queue is full of jobs it may not displace, or the pool has shut down. A job displaced later
  /// by another address's is not run, and `displaced` is called instead (on the submitting thread).
  package func submit(
    from source: PeerSource?, _ job: @escaping @Sendable () -> Void, displaced: (@Sendable () -> Void)?
  ) -> Bool {
    enum Outcome {
      case queued
      case replaced(@Sendable () -> Void)
      case refused
    }
    let outcome: Outcome = state.withLock { state in
      guard !state.stopping else {
        state.counters.refused += 1
        return .refused
      }
      state.sequence += 1
      let entry = Job(source: source, sequence: state.sequence, run: job, displaced: displaced)
      if state.jobs.count < capacity {
        state.jobs.append(entry)
        state.count(source, held: 1)
        state.counters.queued += 1
        return .queued
      }
      let penalties = state.jobs.map { penalty(of: $0.source) }
      guard let victim = state.displaceable(by: source, own: penalty(of: source), penalties),
        let told = state.jobs[victim].displaced
      else {
        state.counters.refused += 1
        return .refused
      }
      state.count(state.jobs[victim].source, held: -1)
      state.jobs[victim] = entry
      state.count(source, held: 1)
      state.counters.refused += 1
      return .replaced(told)
    }
    switch outcome {
    case .queued:
      available.signal()
      return true
    case .replaced(let told):
      // The place, and the signal queued for it, pass to the newcomer.
      told()
      return true
    case .refused:
      return false
    }
  }

  /// What `penalty` says of `source` now; 0 for a job of no address, or without `penalty`.
  private func penalty(of source: PeerSource?) -> Int {
    guard let source, let penalty else { return 0 }
    return penalty(source)
  }

  package var counters: Counters {
    state.withLock { $0.counters }
  }

  /// Whether `shutdown` has begun: from then on `submit` refuses. Lets a test see the shutdown
  /// under way before it lets a running job go.
  package var isShuttingDown: Bool {
    state.withLock { $0.stopping }
  }

  /// Refuses new jobs, lets the queued ones run, and returns when every thread has ended.
  /// Called from one of the pool's own jobs (whose end let the engine go), it returns when the
  /// other threads have ended; the job's own thread ends once the job returns.
  package func shutdown() {
    let first = state.withLock { state in
      defer { state.stopping = true }
      return !state.stopping
    }
    guard first else { return }
    for _ in 0..<threads { available.signal() }
    for worker in workers { worker.join() }
  }

  /// A thread's life: take the oldest job, run it outside the lock, until shut down with
  /// nothing left to run.
  private func work() {
    while true {
      available.wait()
      let next: Job? = state.withLock { state in
        guard let index = state.next(state.jobs.map { penalty(of: $0.source) }) else { return nil }
        state.counters.queued -= 1
        state.counters.running += 1
        let job = state.jobs.remove(at: index)
        state.count(job.source, held: 0, running: 1)
        return job
      }
      // Each signal is either a job queued or a thread told to stop, and jobs are always taken
      // first, so finding none means this thread's stop.
      guard let job = next else { break }
      job.run()
      state.withLock { state in
        state.counters.running -= 1
        state.counters.completed += 1
        state.count(job.source, held: -1, running: -1)
      }
    }
  }
}

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
/// Jobs may say whose they are (`ShareKey`: an address, or an account), so that the pool is
/// shared fairly (docs/security.md, "Fair shares"): no handful of sources may keep anyone else's
/// work out. Each source has a score, lower first:
/// - its load in the pool's `UsageLedger`: the jobs it ran lately (every job counts, a check that
///   succeeds as much as one that fails, decaying by half each minute) plus the jobs it holds,
///   waiting or running;
/// - plus `failureWeight` for each failure `penalty` says its address had lately (wrong
///   passwords, as the login throttle counts them when a thread looks, so a job queued before its
///   address started failing yields too);
/// - but for a source that passed a password check in the last 15 minutes (vouched for), the
///   first `trustAllowance` jobs of its recent work are free and the job it holds counts as
///   none: a host known to log in, at a person's pace, goes ahead of hosts the server knows
///   nothing of, so a flood from fresh addresses cannot keep out a user who was here before,
///   while a known host that logs in over and over ranks by its work like any other.
/// A thread takes the waiting job with the lowest score, then the oldest. When the queue is full,
/// a newcomer takes the place of the newest job of the source with the highest score, if that
/// score is at least one above the newcomer's own (counting the newcomer's job); that job is told
/// it was displaced. So the source using most is the one refused, never a newcomer with less, and
/// a source that has used nothing and holds nothing gets a place unless every waiting job is just
/// like it (then it could not be told apart from them anyway).
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

  /// What a job tells the pool of its source when it returns.
  package enum Outcome: Sendable {
    case done
    /// A password check passed: the source is known to log in (see `trustAllowance`).
    case vouched
  }

  private struct Job {
    /// nil: a job of no one, ranked only by age.
    let source: ShareKey?
    let sequence: UInt64
    let run: @Sendable () -> Outcome
    /// Told when a newcomer takes the job's place (see above); nil: the job is never displaced.
    let displaced: (@Sendable () -> Void)?
  }

  /// The score each failure adds, and the recent work a vouched-for source is spared (see above).
  package static let failureWeight = 2.0
  package static let trustAllowance = 8.0

  private struct State {
    var jobs: [Job] = []
    var counters = Counters()
    var stopping = false
    var sequence: UInt64 = 0
    var ledger = UsageLedger<ShareKey>()
  }

  package let threads: Int
  package let capacity: Int
  private let penalty: (@Sendable (ShareKey) -> Int)?
  private let clock: any EngineClock
  private let state = Mutex(State())
  /// One signal per job queued, and one per thread at shutdown: a thread sleeps here until
  /// there is something for it.
  private let available = Semaphore()
  /// Made by the starter the pool was given: the engine starts no thread of its own.
  private let workers: [any WorkerThread]

  /// Starts `threads` threads at once, made by `starter` and named `name-1`, `name-2`… (Linux
  /// keeps 15 bytes of a name); `capacity` is how many jobs may wait for them.
  /// `penalty` counts a source's recent failures (see above); without it, none has any.
  package init(
    name: String = "jobs", threads: Int = 2, capacity: Int = 64, starter: any ThreadStarter,
    clock: any EngineClock = MonotonicEngineClock(), penalty: (@Sendable (ShareKey) -> Int)? = nil
  ) {
    precondition(threads >= 1 && capacity >= 0, "a job pool needs a thread and a capacity of zero or more")
    self.threads = threads
    self.capacity = capacity
    self.penalty = penalty
    self.clock = clock
    workers = (1...threads).map { starter.thread(named: "\(name)-\($0)", quality: .default) }
    for worker in workers { worker.start { [self] in work() } }
  }

  /// Queues `job`, of no one, for a thread; false, without running it, when `capacity` jobs are
  /// already waiting or the pool has shut down.
  package func submit(_ job: @escaping @Sendable () -> Void) -> Bool {
    submit(
      from: nil,
      {
        job()
        return .done
      }, displaced: nil)
  }

  /// Queues `job` for `source`, in its turn (see above); false, without running it, when the
  /// queue is full of jobs it may not displace, or the pool has shut down. A job displaced later
  /// by another source's is not run, and `displaced` is called instead (on the submitting thread).
  package func submit(
    from source: ShareKey?, _ job: @escaping @Sendable () -> Outcome, displaced: (@Sendable () -> Void)?
  ) -> Bool {
    enum Admission {
      case queued
      case replaced(@Sendable () -> Void)
      case refused
    }
    let now = clock.now()
    let admission: Admission = state.withLock { state in
      guard !state.stopping else {
        state.counters.refused += 1
        return .refused
      }
      state.sequence += 1
      let entry = Job(source: source, sequence: state.sequence, run: job, displaced: displaced)
      if state.jobs.count < capacity {
        state.jobs.append(entry)
        if let source { state.ledger.hold(source, now: now) }
        state.counters.queued += 1
        return .queued
      }
      guard let victim = displaceable(by: source, in: state, now: now),
        let told = state.jobs[victim].displaced
      else {
        state.counters.refused += 1
        return .refused
      }
      if let gone = state.jobs[victim].source { state.ledger.hold(gone, -1, now: now) }
      state.jobs[victim] = entry
      if let source { state.ledger.hold(source, now: now) }
      state.counters.refused += 1
      return .replaced(told)
    }
    switch admission {
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

  /// `source`'s score now (see above), with `extra` jobs more than it holds.
  private func score(_ source: ShareKey?, extra: Int = 0, in state: State, now: UInt64) -> Double {
    guard let source else { return Double(extra) }
    let held = Double(state.ledger.held(source) + extra)
    let used = state.ledger.used(source, now: now)
    var score =
      state.ledger.vouched(source, now: now) ? max(0, used - Self.trustAllowance) + max(0, held - 1) : used + held
    if let penalty { score += Self.failureWeight * Double(penalty(source)) }
    return score
  }

  /// The waiting job a newcomer from `source` may take the place of, if any (see above).
  private func displaceable(by source: ShareKey?, in state: State, now: UInt64) -> Int? {
    var scores: [ShareKey?: Double] = [:]
    var victim: (index: Int, score: Double)?
    for (index, job) in state.jobs.enumerated() where job.displaced != nil && job.source != source {
      let score = scores[job.source] ?? self.score(job.source, in: state, now: now)
      scores[job.source] = score
      // At equal scores the newest, which has waited least.
      let worse = victim.map { score > $0.score || (score == $0.score && job.sequence > state.jobs[$0.index].sequence) }
      if worse ?? true { victim = (index, score) }
    }
    guard let victim, victim.score >= score(source, extra: 1, in: state, now: now) + 1 else { return nil }
    return victim.index
  }

  /// The waiting job a thread takes next: the lowest score, then the oldest.
  private func next(in state: State, now: UInt64) -> Int? {
    var scores: [ShareKey?: Double] = [:]
    var best: (index: Int, score: Double)?
    for (index, job) in state.jobs.enumerated() {
      let score = scores[job.source] ?? self.score(job.source, in: state, now: now)
      scores[job.source] = score
      let better = best.map { score < $0.score || (score == $0.score && job.sequence < state.jobs[$0.index].sequence) }
      if better ?? true { best = (index, score) }
    }
    return best?.index
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

  /// A thread's life: take the next job, run it outside the lock, until shut down with
  /// nothing left to run.
  private func work() {
    while true {
      available.wait()
      let taken: Job? = state.withLock { state in
        let now = clock.now()
        guard let index = next(in: state, now: now) else { return nil }
        state.counters.queued -= 1
        state.counters.running += 1
        let job = state.jobs.remove(at: index)
        if let source = job.source { state.ledger.charge(source, now: now) }
        return job
      }
      // Each signal is either a job queued or a thread told to stop, and jobs are always taken
      // first, so finding none means this thread's stop.
      guard let job = taken else { break }
      let outcome = job.run()
      state.withLock { state in
        state.counters.running -= 1
        state.counters.completed += 1
        guard let source = job.source else { return }
        let now = clock.now()
        state.ledger.hold(source, -1, now: now)
        if case .vouched = outcome { state.ledger.vouch(source, now: now) }
      }
    }
  }
}

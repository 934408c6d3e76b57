import Foundation
import StockroomDomain
import StockroomEngine
import StockroomLogging
import StockroomStorage
import StockroomSystem
import Synchronization

/// The change path of a shop saved in SQLite: changes are applied at once and written in group
/// commits, on a thread of its own.
///
/// Mutations applied while one transaction is being written wait together for the next, so
/// fifty clients ordering at once cost one fsync, not fifty. What an event loop applies waits
/// for the end of the loop's round (`roundEnded`) before it is written, as Redis writes its
/// append-only file before it sleeps: a commit then takes every change one wake-up read, not
/// the first few the committer found when it woke. Nothing is acknowledged and no event is sent
/// until the transaction holding it has committed.
package final class Committer: ChangePath, @unchecked Sendable {
  private struct Pending {
    var batch = JournalBatch()
    /// Each change's events as it made them: appending them one by one, under the locks,
    /// retained every string of every event (~330 instructions an ORDER), for a list that only
    /// watchers read.
    var events: [[StockEvent]] = []
    var ticket = CommitTicket()
    /// Someone waits on `ticket` even if `batch` is empty (a retried keyed order).
    var awaited = false
    var stopping = false
    /// The committer thread is asleep and needs a signal; while it works it looks again by itself.
    var sleeping = false
    /// What is gathered may be written: a thread that ends rounds (an event loop) has ended one
    /// since, or a change came from a thread that does not. Until then a committer that is free
    /// waits, so that one commit takes every change of a loop's round.
    var sealed = false
    /// The commit being written now: the one before `ticket`.
    var writing: CommitTicket?

    /// Marks what is gathered as ready to be written; true when the committer sleeps and must
    /// be signalled (it is then counted awake, so that one signal is sent per sleep).
    mutating func seal() -> Bool {
      sealed = true
      defer { sleeping = false }
      return sleeping
    }

    /// What is gathered next, once this is taken to be written (or failed).
    func next(writing: CommitTicket?) -> Pending {
      var next = Pending(stopping: stopping)
      next.writing = writing
      return next
    }
  }

  package let database: any ShopJournal
  private let shop: LockedShop
  /// Reads the shop back from the disk, after a commit failed.
  private let reload: @Sendable () throws -> ShopState
  private let pending = Mutex(Pending())
  private let wakeUp = Semaphore()
  private let logger: Logger
  /// Made by the starter the committer was given: the engine starts no thread of its own.
  private let thread: any WorkerThread
  /// Stamps the rows, times the commits and says when housekeeping is due.
  private let clock: any EngineClock

  package let figures = CommitFigures()
  private let failing = Atomic<Bool>(false)
  /// When keys were last expired (`clock.now()`).
  private var lastExpiry: UInt64
  /// When the last commit was written: the journal folds its log once none came for `idleAfter`.
  private var lastCommit: UInt64
  /// Long enough that a client ordering one at a time never looks idle, short enough that a
  /// read of history seldom finds anything to fold.
  private let idleAfter = Duration.milliseconds(50)
  /// The last fold failed and said so: the next failure is not logged again.
  private var foldFailing = false

  /// Commits the changes made to `shop` to `database`, which holds what `shop` was loaded from,
  /// on a thread `starter` makes (`sr-committer`), started by `start()`; `clock` is its time.
  package init(
    database: any ShopJournal, shop: LockedShop, logger: Logger, starter: any ThreadStarter,
    clock: any EngineClock, reload: @escaping @Sendable () throws -> ShopState
  ) {
    self.database = database
    self.shop = shop
    self.logger = logger
    self.reload = reload
    self.clock = clock
    // Both are due from now: keys expire a minute after start, the log folds once it is idle.
    (lastExpiry, lastCommit) = (clock.now(), clock.now())
    thread = starter.thread(named: "sr-committer", quality: .userInitiated)
  }

  package var history: (any ShopHistory)? { database }
  package var commitFigures: CommitFigures? { figures }

  /// The group a change joins is committed after the one being written, so waiting for the
  /// newest with a change in it covers every change applied so far.
  package var uncommitted: CommitTicket? {
    let newest = pending.withLock { $0.awaited ? $0.ticket : $0.writing }
    guard let newest, newest.outcome == nil else { return nil }
    return newest
  }

  /// Returns once the thread runs under its name, as `EventLoop.init` does.
  package func start() {
    thread.start { [self] in run() }
  }

  /// Applies the change to the shop at once and queues its rows for the next group commit; the
  /// ticket says when the reply may go.
  package func submit(_ mutation: Mutation) throws(ShopError) -> SubmittedChange {
    let now = clock.wallTime()
    var ticket: CommitTicket?
    let applied = try shop.apply(mutation) { applied, shop in
      switch applied.outcome {
      case .reordered:
        // Already on disk: nothing to write and nothing to wait for.
        ticket = nil
      case .ordered(_, repeated: true):
        // The first attempt may still be on its way to the disk: answer when it is there.
        ticket = enqueue(events: []) { _ in }
      default:
        let (stock, counters) = (shop.stock, shop.counters)
        ticket = enqueue(events: applied.events) { batch in
          batch.record(applied, stock: stock, counters: counters, at: now)
        }
      }
    }
    return .applied(applied, ticket)
  }

  /// Called under the shop's lock, so batches keep the order the changes were made in.
  /// `record` writes the change's rows straight into the batch being gathered.
  private func enqueue(events: [StockEvent], _ record: (inout JournalBatch) -> Void) -> CommitTicket {
    // An event loop seals its round's changes when the round ends (`roundEnded`); any other
    // thread's change is ready at once.
    let seals = !CurrentThread.endsRounds
    let (ticket, wake) = pending.withLock { pending -> (CommitTicket, Bool) in
      record(&pending.batch)
      if !events.isEmpty { pending.events.append(events) }
      pending.awaited = true
      guard seals else { return (pending.ticket, false) }
      return (pending.ticket, pending.seal())
    }
    // One signal per sleep, not per change: a busy committer picks up the next batch by itself.
    if wake { wakeUp.signal() }
    return ticket
  }

  /// A loop's round has ended: what it gathered may be written.
  package func roundEnded() {
    let wake = pending.withLock { pending -> Bool in
      guard pending.awaited, !pending.sealed else { return false }
      return pending.seal()
    }
    if wake { wakeUp.signal() }
  }

  /// Fails everything waiting for a commit that will not happen; called under the shop's lock.
  private func failPending(_ failure: CommitFailure) {
    pending.withLock { pending in
      guard pending.awaited else { return }
      let ticket = pending.ticket
      pending = pending.next(writing: pending.writing)
      ticket.complete(.failed(failure))
    }
  }

  /// Commits what is pending, then stops the thread; waits at most 10 s for it to end, and not
  /// at all when called on the committer's own thread (a commit's waiter that let the engine
  /// go), which ends once the commit in hand is answered.
  package func stop() {
    pending.withLock {
      $0.stopping = true
      $0.sleeping = false
    }
    wakeUp.signal()
    thread.join(timeout: .seconds(10))
  }

  private func run() {
    var idle = false
    while true {
      if idle { wakeUp.wait(timeout: .milliseconds(100)) }
      let (work, stopping) = pending.withLock { pending -> (Pending?, Bool) in
        guard pending.awaited, pending.sealed || pending.stopping else {
          pending.sleeping = true
          return (nil, pending.stopping)
        }
        // Swapped, not copied: copying the gathered batch and its events retained each of their
        // buffers through the type's value witnesses, a few thousand instructions a commit.
        var work = pending.next(writing: pending.ticket)
        swap(&work, &pending)
        return (work, pending.stopping)
      }
      idle = work == nil
      if let work {
        commit(work)
      } else if failing.load(ordering: .relaxed) {
        probe()
      }
      housekeeping()
      if stopping && work == nil {
        try? database.checkpoint()
        return
      }
    }
  }

  private func commit(_ work: Pending) {
    guard !failing.load(ordering: .relaxed) else {
      work.ticket.complete(.failed(CommitFailure(.io, "the server is refusing writes until the disk accepts them")))
      return
    }
    let started = clock.now()
    do {
      if !work.batch.isEmpty { try database.write(work.batch) }
    } catch {
      fail(work, CommitFailure(sqlite: error))
      return
    }
    lastCommit = clock.now()
    figures.recordCommit(changes: work.batch.count, duration: clock.elapsed(since: started))
    shop.committed(work.events, settledThrough: work.batch.receipts.last?.order.id)
    work.ticket.complete(.committed)
  }

  /// The shop is read back from the disk and what came after fails; then this batch's waiters hear.
  private func fail(_ work: Pending, _ failure: CommitFailure) {
    figures.recordFailure(failure.kind)
    // A file is never unreachable (`CommitFailure(sqlite:)`): it is the disk's failure, or the rows'.
    if failure.kind == .logic {
      // Not the disk's fault, so no read-only mode: a bug or a damaged file, which a person must see.
      logger.error(
        "commit of \(work.batch.count) changes refused by the database: \(failure.message); those changes and any "
          + "queued after them were not made, the shop was reloaded from the disk, and writes go on")
    } else {
      failing.store(true, ordering: .relaxed)
      logger.error(
        "commit of \(work.batch.count) changes failed: \(failure.message); refusing writes until the disk accepts them"
      )
    }
    let later = CommitFailure(failure.kind, "an earlier change could not be saved: \(failure.message)")
    let readBack = shop.commitFailed(failure, reloaded: Result { try reload() }) { failPending(later) }
    if !readBack {
      failing.store(true, ordering: .relaxed)
      logger.error("cannot read the shop back from the disk after a failed commit; refusing writes until it can")
    }
    work.ticket.complete(.failed(failure))
  }

  /// Folds the journal's commit log when it is due. A failure loses nothing (the records stay in
  /// the log, which start-up and the next fold read), so it is logged once, not per commit.
  private func fold() {
    do {
      guard try database.foldIfDue(idle: clock.elapsed(since: lastCommit) >= idleAfter), foldFailing else { return }
      logger.info("the commit log folds into the tables again")
      foldFailing = false
    } catch {
      guard !foldFailing else { return }
      foldFailing = true
      logger.error(
        "folding the commit log into the tables failed: \(error); the changes are kept in the log, and reads of "
          + "history fail until it folds")
    }
  }

  private func probe() {
    do {
      try database.probe()
    } catch {
      return
    }
    guard shop.recovered(reload: reload) else { return }
    failing.store(false, ordering: .relaxed)
    logger.info("writes accepted again: the database took a test write")
  }

  private func housekeeping() {
    fold()
    do {
      try database.syncIfDue(now: clock.wallTime())
      if clock.elapsed(since: lastExpiry) > .seconds(60) {
        lastExpiry = clock.now()
        try database.expireKeys(olderThan: shop.limits.keyExpiry(now: clock.wallTime()))
      }
    } catch {
      logger.warning("background sync failed: \(error)")
    }
  }
}

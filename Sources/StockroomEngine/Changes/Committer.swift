import Foundation
import StockroomDomain
import StockroomLogging
import StockroomStorage
import StockroomSystem
import Synchronization

/// Writes the store's changes to SQLite in group commits, on a thread of its own.
///
/// Mutations applied while one transaction is being written wait together for the next, so
/// fifty clients ordering at once cost one fsync, not fifty. Nothing is acknowledged and no
/// event is sent until the transaction holding it has committed.
package final class Committer: @unchecked Sendable {
  private struct Pending {
    var batch = JournalBatch()
    var events: [StockEvent] = []
    var ticket = CommitTicket()
    /// Someone waits on `ticket` even if `batch` is empty (a retried keyed order).
    var awaited = false
    var stopping = false
    /// The committer thread is asleep and needs a signal; while it works it looks again by itself.
    var sleeping = false
  }

  package let database: any ShopJournal
  private let pending = Mutex(Pending())
  private let wakeUp = Semaphore()
  private let logger: Logger
  private let done = Semaphore()
  /// Set by the store: a commit failed, so go back to what the disk holds (and, for an I/O
  /// failure, refuse writes). Returns false when the disk could not be read back: then the shop in
  /// memory cannot be trusted and writes are refused until a reload works.
  package var onFailure: ((CommitFailure) -> Bool)?
  /// Set by the store: writing works again. Returns false when the shop could still not be
  /// read back from the disk, and writes stay refused.
  package var onRecovery: (() -> Bool)?
  /// Set by the store: the orders up to this id are on disk, so their receipts can be read there.
  package var onSettled: ((Int) -> Void)?
  package var deliver: (([StockEvent]) -> Void)?

  package let figures = CommitFigures()
  private let failing = Atomic<Bool>(false)
  private var lastExpiry = Date()

  package init(database: any ShopJournal, logger: Logger) {
    self.database = database
    self.logger = logger
  }

  /// Returns once the thread runs under its name, as `EventLoop.init` does.
  package func start() {
    let started = Semaphore()
    let thread = Thread { [self] in
      CurrentThread.setName("sr-committer")
      started.signal()
      run()
    }
    thread.qualityOfService = .userInitiated
    thread.start()
    started.wait()
  }

  /// Called under the store's lock, so batches keep the order the changes were made in.
  /// `record` writes the change's rows straight into the batch being gathered.
  package func enqueue(events: [StockEvent], _ record: (inout JournalBatch) -> Void) -> CommitTicket {
    let (ticket, wake) = pending.withLock { pending -> (CommitTicket, Bool) in
      record(&pending.batch)
      pending.events += events
      pending.awaited = true
      defer { pending.sleeping = false }
      return (pending.ticket, pending.sleeping)
    }
    // One signal per sleep, not per change: a busy committer picks up the next batch by itself.
    if wake { wakeUp.signal() }
    return ticket
  }

  /// Fails everything waiting for a commit that will not happen; called under the store's lock.
  package func failPending(_ failure: CommitFailure) {
    pending.withLock { pending in
      guard pending.awaited else { return }
      let ticket = pending.ticket
      pending = Pending(stopping: pending.stopping)
      ticket.complete(.failed(failure))
    }
  }

  /// Commits what is pending, then stops the thread. A later call returns as soon as the
  /// thread has gone: the thread says it once, so each caller passes the word on.
  package func stop() {
    pending.withLock {
      $0.stopping = true
      $0.sleeping = false
    }
    wakeUp.signal()
    if done.wait(timeout: .seconds(10)) { done.signal() }
  }

  private func run() {
    var idle = false
    while true {
      if idle { wakeUp.wait(timeout: .milliseconds(100)) }
      let (work, stopping) = pending.withLock { pending -> (Pending?, Bool) in
        guard pending.awaited else {
          pending.sleeping = true
          return (nil, pending.stopping)
        }
        let work = pending
        pending = Pending(stopping: pending.stopping)
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
        done.signal()
        return
      }
    }
  }

  private func commit(_ work: Pending) {
    guard !failing.load(ordering: .relaxed) else {
      work.ticket.complete(.failed(CommitFailure(.io, "the server is refusing writes until the disk accepts them")))
      return
    }
    let started = ContinuousClock.now
    do {
      if !work.batch.isEmpty { try database.write(work.batch) }
    } catch {
      fail(work, CommitFailure(error))
      return
    }
    figures.recordCommit(changes: work.batch.count, duration: ContinuousClock.now - started)
    if let newest = work.batch.receipts.last?.order.id { onSettled?(newest) }
    if !work.events.isEmpty { deliver?(work.events) }
    work.ticket.complete(.committed)
  }

  /// The store reloads what is on disk and fails what came after; then this batch's waiters hear.
  private func fail(_ work: Pending, _ failure: CommitFailure) {
    figures.recordFailure(failure.kind)
    switch failure.kind {
    case .io:
      failing.store(true, ordering: .relaxed)
      logger.error(
        "commit of \(work.batch.count) changes failed: \(failure.message); refusing writes until the disk accepts them"
      )
    case .unreachable:
      failing.store(true, ordering: .relaxed)
      logger.error(
        "commit of \(work.batch.count) changes failed: \(failure.message); refusing writes until the database answers"
      )
    case .logic:
      // Not the disk's fault, so no read-only mode: a bug or a damaged file, which a person must see.
      logger.error(
        "commit of \(work.batch.count) changes refused by the database: \(failure.message); those changes and any "
          + "queued after them were not made, the shop was reloaded from the disk, and writes go on")
    }
    if onFailure?(failure) == false {
      failing.store(true, ordering: .relaxed)
      logger.error("cannot read the shop back from the disk after a failed commit; refusing writes until it can")
    }
    work.ticket.complete(.failed(failure))
  }

  private func probe() {
    do {
      try database.probe()
    } catch {
      return
    }
    guard onRecovery?() != false else { return }
    failing.store(false, ordering: .relaxed)
    logger.info("writes accepted again: the database took a test write")
  }

  private func housekeeping() {
    do {
      try database.syncIfDue(now: Date())
      let now = Date()
      if now.timeIntervalSince(lastExpiry) > 60 {
        lastExpiry = now
        // An hour past the shop's own retention, so a key the shop still honours is always on disk.
        try database.expireKeys(olderThan: now.addingTimeInterval(-(ShopLimits().orderKeyRetention + 3600)))
      }
    } catch {
      logger.warning("background sync failed: \(error)")
    }
  }
}

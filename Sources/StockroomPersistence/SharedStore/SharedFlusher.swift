import StockroomEngine
import StockroomLogging
import StockroomStorage
import StockroomSystem
import Synchronization

/// Tells what the shared writer committed, in the order it was committed, once it is on
/// PostgreSQL's disk: the replies held for it (already written, through its `durable` ticket),
/// its events for watchers and the reads waiting on it.
///
/// With `--fsync always` a commit does not wait for its WAL flush (`SharedWriter`); here, on a
/// thread and a connection of their own (`sr-flusher`), one flush barrier confirms every commit
/// handed over since the last one, while the writer already runs its next transaction. Before,
/// the writer waited for each barrier itself, and the flush and the announcement were half of
/// every commit's turn. With `batch` and `off` a commit is as durable as it gets when it returns,
/// and everything is told at once on the writer's thread.
///
/// Only this type delivers committed events, so watchers hear them in commit order.
package final class SharedFlusher: Sendable {
  private struct Queue {
    var items: [SharedPublication] = []
    var stopping = false
    /// Why the last barrier failed, until the writer takes it.
    var unconfirmed: String?
  }

  private let database: PostgresShopDatabase
  private let node: String
  private let shop: LockedShop
  private let figures: CommitFigures
  private let queue = Mutex(Queue())
  private let wakeUp = Semaphore()
  /// nil when commits are told on the writer's thread.
  private let thread: (any WorkerThread)?
  /// Signalled when a barrier failed: the writer's own wake-up.
  private let failures: Semaphore
  /// Whether the writer is in a transaction, whose commit a barrier will soon confirm.
  private let committing = Atomic<Bool>(false)
  /// Times the commits it tells and the announcements it puts off.
  private let clock: any EngineClock

  init(
    database: PostgresShopDatabase, node: String, shop: LockedShop, figures: CommitFigures,
    starter: any ThreadStarter, clock: any EngineClock, failures: Semaphore
  ) {
    self.database = database
    self.node = node
    self.shop = shop
    self.figures = figures
    self.failures = failures
    self.clock = clock
    thread = database.flushesSeparately ? starter.thread(named: "sr-flusher", quality: .userInitiated) : nil
  }

  func start() {
    thread?.start { [self] in run() }
  }

  /// Says the writer has begun a transaction; publishing its end says it is over.
  func beginCommit() {
    committing.store(true, ordering: .relaxed)
  }

  /// Tells `item` after everything handed before it: at once without a thread of its own.
  func publish(_ item: SharedPublication) {
    guard thread != nil else {
      tell(item, unconfirmed: nil)
      return
    }
    switch item {
    case .commit, .ended: committing.store(false, ordering: .relaxed)
    case .replayed, .marker: break
    }
    let wake = queue.withLock { queue in
      queue.items.append(item)
      return queue.items.count == 1
    }
    if wake { wakeUp.signal() }
  }

  /// Returns once everything handed so far has been told: before the shop is replaced, so that
  /// no event from before reaches a watcher after the new shop's.
  func drain() {
    guard thread != nil else { return }
    let done = Semaphore()
    publish(.marker(done))
    done.wait()
  }

  /// Why a barrier failed since the last call, if one did: the commits it was to confirm were
  /// told they failed, but the writer's shop holds them, so it must be loaded again.
  func takeUnconfirmed() -> String? {
    queue.withLock { queue in
      defer { queue.unconfirmed = nil }
      return queue.unconfirmed
    }
  }

  /// Tells what is queued, then ends the thread.
  func stop() {
    guard let thread else { return }
    queue.withLock { $0.stopping = true }
    wakeUp.signal()
    thread.join(timeout: .seconds(10))
  }

  /// The longest a barrier's announcement is put off while the writer keeps committing: how
  /// much later than otherwise another node's watchers may hear of this node's changes.
  static let announcementDelay = Duration.milliseconds(5)

  /// A barrier announces how far the log is on disk, unless the writer is in a transaction
  /// whose own barrier follows soon and will say so, and the last announcement is recent: then
  /// the announcement is owed, and sent by a later barrier or, once the writer is idle, alone.
  /// Under load this takes a transaction off most flushes, and the catch-ups each announcement
  /// sets off at every other node.
  private func run() {
    var owesAnnouncement = false
    var lastAnnounced = clock.now()
    while true {
      let (items, stopping) = queue.withLock { queue in
        defer { queue.items = [] }
        return (queue.items, queue.stopping)
      }
      if items.isEmpty {
        if owesAnnouncement && announcementDue(since: lastAnnounced) {
          owesAnnouncement = false
          lastAnnounced = clock.now()
          try? database.announceFlushed(node: node)
          continue
        }
        if stopping { return }
        // The writer's next hand-over wakes it; the timeout only bounds an owed announcement.
        _ = wakeUp.wait(timeout: owesAnnouncement ? Self.announcementDelay : .milliseconds(200))
        continue
      }
      var failure: CommitFailure?
      if items.contains(where: Self.needsFlush) {
        let announcing = announcementDue(since: lastAnnounced)
        failure = confirm(announcing: announcing)
        if announcing { lastAnnounced = clock.now() }
        owesAnnouncement = !announcing || failure != nil
      }
      for item in items { tell(item, unconfirmed: failure) }
      if let failure {
        queue.withLock { $0.unconfirmed = failure.message }
        failures.signal()
      }
    }
  }

  /// Whether to announce now: no barrier of the writer's is near, or the last was long enough ago.
  private func announcementDue(since last: UInt64) -> Bool {
    !committing.load(ordering: .relaxed) || clock.elapsed(since: last) >= Self.announcementDelay
  }

  /// One barrier for every commit taken, as each was committed before it began; nil once it
  /// has confirmed them.
  private func confirm(announcing: Bool) -> CommitFailure? {
    do {
      try database.confirmCommitted(node: node, announcing: announcing)
      return nil
    } catch {
      return CommitFailure(
        .unreachable, "the database could not confirm the change on disk, so it was not acknowledged: \(error)")
    }
  }

  private static func needsFlush(_ item: SharedPublication) -> Bool {
    if case .commit(let commit) = item { commit.needsFlush } else { false }
  }

  /// A commit the barrier did not confirm fails as one whose answer was lost: it may or may not
  /// be on disk, and a keyed retry settles which. Replayed changes were on disk already.
  private func tell(_ item: SharedPublication, unconfirmed: CommitFailure?) {
    switch item {
    case .commit(let commit):
      if let failure = unconfirmed, commit.needsFlush {
        // Counted before its replies, held for `durable`, go out (as this error instead): a
        // client that reads INFO after its reply sees its commit counted, as on SQLite.
        figures.recordFailure(.unreachable)
        commit.durable.complete(.failed(failure))
      } else {
        figures.recordCommit(changes: commit.made, duration: clock.elapsed(since: commit.started))
        commit.durable.complete(.committed)
        shop.committed(commit.events, settledThrough: commit.newestOrder)
      }
    case .replayed(let events):
      shop.committed(events, settledThrough: nil)
    case .ended(let durable, let outcome):
      durable.complete(outcome)
    case .marker(let done):
      done.signal()
    }
  }
}

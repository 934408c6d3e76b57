import Foundation
import StockroomDomain
import StockroomLogging
import StockroomStorage
import StockroomSystem
import Synchronization

/// The change path of a shop shared by several nodes through PostgreSQL: a writer on a thread
/// of its own.
///
/// The database is the authority and this node's shop in memory a cache of it, changed only
/// here, in commit order: this node's changes, applied to the shop as the database holds it
/// while the store's writers' lock is held (`commitChange`), and the other nodes' changes,
/// replayed from the change log when a notification (or, as a fallback, a poll) says there are
/// some. Changes that arrive together, and those that arrive while it waits for the writers'
/// lock, share one transaction, as the SQLite committer's do.
/// Its flusher (`SharedFlusher`) tells every change, this node's and the others', once it is on
/// disk and in commit order: replies, watchers (so in commit order per item whichever node made
/// it) and reads waiting on it; with `--fsync always` on a thread of its own, while the writer
/// runs its next transaction.
///
/// Reads wait here too (`--reads linearizable`): each iteration takes the reads queued so far
/// with the changes, and lets them go once the cache holds the store's head as read after they
/// were queued, by the commit's own look under the writers' lock or, with no change to make,
/// by one query that returns the head and the changes this node lacks. Reads that arrive
/// meanwhile wait for the next iteration, so a burst of reads costs one round trip.
///
/// While the database cannot be reached, changes are refused with `ERR UNAVAILABLE`, reads are
/// answered from the cache, and watchers are told (`! store state=down`); once it answers, the
/// shop is loaded again, watchers get a `cause=resync` event for every level that moved, then
/// `! store state=up`.
package final class SharedWriter: ChangePath, @unchecked Sendable {
  private struct Queue {
    var tickets: [ChangeTicket] = []
    /// Reads waiting for the cache to catch up with the store.
    var reads: [ReadIndexTicket] = []
    /// The newest change announced by the feed.
    var announced = 0
    /// Why the feed lost the database, when it did.
    var lost: String?
    var stopping = false

    /// Up to `count` of the changes waiting, oldest first, taken off the queue.
    mutating func take(upTo count: Int) -> [ChangeTicket] {
      guard count > 0 else { return [] }
      let taken = Array(tickets.prefix(count))
      tickets.removeFirst(taken.count)
      return taken
    }
  }

  /// More changes than this waiting means the database is not keeping up: refuse, don't queue.
  package static let queueCapacity = 10_000
  /// Changes per transaction: a bigger group would hold the writers' lock longer than it saves.
  package static let batchLimit = 500
  /// Transactions retried after a serialization failure or deadlock before the changes fail.
  package static let attempts = 3

  package let database: PostgresShopDatabase
  /// How this node names itself in the change log.
  package let node: String
  private let logger: Logger
  private let reload: @Sendable () throws -> (shop: ShopState, sequence: Int)
  package let reads: ReadMode
  /// The transaction this node is committing, whose changes the cache already shows: a read
  /// that may show them is answered after it.
  private let inFlight = Mutex<CommitTicket?>(nil)
  private let queue = Mutex(Queue())
  private let wakeUp = Semaphore()
  /// Both made by the starter the writer was given: the engine starts no thread of its own.
  private let writer: any WorkerThread
  /// Never joined: it ends within a poll of `stop`, on its own.
  private let feedThread: any WorkerThread
  private let feed: PostgresChangeFeed
  /// Tells each commit once it is on disk; replies and events go only through it.
  private let flusher: SharedFlusher

  /// The cache of the store; changed only on the writer's thread.
  private let shop: LockedShop

  // The writer thread's own.
  private var known: Int
  private var linkUp = true
  private var lastPoll = ContinuousClock.now
  private var lastHousekeeping = ContinuousClock.now

  package let figures = CommitFigures()
  package let replayedChanges = Atomic<Int>(0)
  package let retries = Atomic<Int>(0)
  package let reloads = Atomic<Int>(0)
  package let readCounts = ReadIndexCounts()
  /// The last change this node's cache holds.
  package let sequence: Atomic<Int>
  package let connected = Atomic<Bool>(true)

  /// Keeps `shop`, which holds the database's changes through `sequence`, as the cache of
  /// `database`, on two threads `starter` makes (`sr-writer`, `sr-feed`), started by `start()`.
  package init(
    database: PostgresShopDatabase, shop: LockedShop, sequence: Int, node: String, reads: ReadMode = .linearizable,
    logger: Logger, starter: any ThreadStarter,
    reload: @escaping @Sendable () throws -> (shop: ShopState, sequence: Int)
  ) {
    self.reads = reads
    self.database = database
    self.shop = shop
    self.node = node
    self.logger = logger
    self.reload = reload
    self.feed = PostgresChangeFeed(url: database.url)
    known = sequence
    self.sequence = Atomic(sequence)
    writer = starter.thread(named: "sr-writer", quality: .userInitiated)
    feedThread = starter.thread(named: "sr-feed", quality: .userInitiated)
    flusher = SharedFlusher(
      database: database, node: node, shop: shop, figures: figures, starter: starter, failures: wakeUp)
  }

  package var journal: (any ShopJournal)? { database }
  package var commitFigures: CommitFigures? { figures }

  package var sharedFigures: SharedFigures? {
    SharedFigures(
      node: node, connected: connected.load(ordering: .relaxed), sequence: sequence.load(ordering: .relaxed),
      waiting: waiting, replayed: replayedChanges.load(ordering: .relaxed), retries: retries.load(ordering: .relaxed),
      reloads: reloads.load(ordering: .relaxed), reads: reads, readsWaited: readCounts.waited.load(ordering: .relaxed),
      readCatchUps: readCounts.catchUps.load(ordering: .relaxed),
      readsUnconfirmed: readCounts.unconfirmed.load(ordering: .relaxed))
  }

  package var uncommitted: CommitTicket? {
    guard let ticket = inFlight.withLock({ $0 }), ticket.outcome == nil else { return nil }
    return ticket
  }

  package func readIndex() -> ReadIndexTicket? {
    reads == .linearizable ? ReadIndexTicket(writer: self) : nil
  }

  /// Starts the writer and the feed; returns once both threads run.
  package func start() {
    // Listening starts before anything is missed: announcements of changes the shop already
    // holds are ignored, and any made since loading are caught by the first poll.
    do { try feed.listen() } catch { logger.warning("cannot listen for other nodes' changes yet: \(error)") }
    flusher.start()
    writer.start { [self] in runWriter() }
    feedThread.start { [self] in runFeed() }
  }

  /// Refuses the change at once when the store refuses changes, rather than after a trip
  /// through the queue; otherwise it is the connection's work to run (`ChangeTicket.run`).
  package func submit(_ mutation: Mutation) throws(ShopError) -> SubmittedChange {
    try shop.checkWritable()
    return .queued(ChangeTicket(mutation, writer: self))
  }

  /// Queues a change for the next transaction; its ticket hears the result.
  func enqueue(_ ticket: ChangeTicket) {
    let accepted = queue.withLock { queue -> Bool in
      guard !queue.stopping, queue.tickets.count < Self.queueCapacity else { return false }
      queue.tickets.append(ticket)
      return true
    }
    guard accepted else {
      ticket.finish(
        .refused(
          ShopError(.limit, "\(Self.queueCapacity) changes are waiting for the database; try again in a moment")))
      return
    }
    wakeUp.signal()
  }

  /// Queues a read for the writer's next iteration; one that finds the writer stopping is
  /// answered from the cache as it is.
  func enqueue(_ read: ReadIndexTicket) {
    let (accepted, wake) = queue.withLock { queue -> (Bool, Bool) in
      guard !queue.stopping else { return (false, false) }
      queue.reads.append(read)
      // One signal per batch of reads: the writer takes them all at once.
      return (true, queue.reads.count == 1)
    }
    guard accepted else {
      read.finish(.unconfirmed)
      return
    }
    if wake { wakeUp.signal() }
  }

  /// Commits what is queued, then stops both threads; waits at most 10 s for the writer to end,
  /// and not at all when called on the writer's own thread (a change's waiter that let the
  /// engine go), which ends once the batch in hand is answered. The feed ends within its poll.
  package func stop() {
    queue.withLock { $0.stopping = true }
    wakeUp.signal()
    writer.join(timeout: .seconds(10))
  }

  // MARK: The writer thread

  private func runWriter() {
    while true {
      // The changes and `stopping` are read together: a change queued between the two reads
      // would be left behind when the writer stops.
      let (tickets, reads, announced, lost, stopping) = queue.withLock { queue in
        defer {
          queue.lost = nil
          queue.reads = []
        }
        return (queue.take(upTo: Self.batchLimit), queue.reads, queue.announced, queue.lost, queue.stopping)
      }
      // The feed's connection is the first to notice a database going away; the writer's own
      // connection decides whether it really has.
      if let lost, linkUp, (try? database.changeHead()) == nil { linkDown(lost) }
      // Commits a barrier failed to confirm were told so, but the shop holds them: load it again.
      if let unconfirmed = flusher.takeUnconfirmed() { linkDown(unconfirmed) }
      if !linkUp { reconnect() }
      if !tickets.isEmpty {
        if linkUp {
          commit(tickets)
        } else {
          let failure = CommitFailure(.unreachable, "the database cannot be reached")
          for ticket in tickets { ticket.finish(.failed(failure)) }
        }
      } else if linkUp && (!reads.isEmpty || announced > known) {
        if !reads.isEmpty { readCounts.catchUps.add(1, ordering: .relaxed) }
        catchUp(to: .durableHead)
      } else if linkUp && ContinuousClock.now - lastPoll > .seconds(1) {
        // A change whose node died before its flush barrier is confirmed by no one else's until
        // the next change: the poll reads to the head, and forces the flush itself.
        catchUp(to: .head)
      }
      // Both the commit (under the writers' lock) and the catch-up read the store's head after
      // these reads were queued, and the cache now holds everything through it.
      release(reads)
      if linkUp { housekeeping() }
      if tickets.isEmpty {
        if stopping { break }
        wakeUp.wait(timeout: .milliseconds(linkUp ? 200 : 250))
      }
    }
    // What it committed is told before the flusher ends.
    flusher.stop()
  }

  private func release(_ reads: [ReadIndexTicket]) {
    guard !reads.isEmpty else { return }
    readCounts.waited.add(reads.count, ordering: .relaxed)
    if !linkUp { readCounts.unconfirmed.add(reads.count, ordering: .relaxed) }
    for read in reads { read.finish(linkUp ? .current : .unconfirmed) }
  }

  /// One try's changes are in the cache from `applyShared` until its transaction ends: reads
  /// that show them wait for `durable`, which ends as the transaction does.
  private func beginAttempt() -> CommitTicket {
    let durable = CommitTicket()
    inFlight.withLock { $0 = durable }
    return durable
  }

  private func commit(_ first: [ChangeTicket]) {
    var tickets = first
    var results: [ChangeTicket.Result] = []
    var events: [StockEvent] = []
    var newestOrder: Int?
    for attempt in 1...Self.attempts {
      flusher.beginCommit()
      let started = ContinuousClock.now
      let durable = beginAttempt()
      do {
        var replayed: [StockEvent] = []
        let before = known
        let head = try database.commitChange(after: known, node: node, confirming: false) { missed in
          replayed = try replay(missed)
          // The writers' lock may have taken a while to get (other nodes' commits go first):
          // what arrived meanwhile joins this transaction rather than wait for the next turn.
          tickets += queue.withLock { $0.take(upTo: Self.batchLimit - tickets.count) }
          let own = shop.applyShared(tickets.map(\.mutation))
          results = own.results
          events = own.events
          newestOrder = own.newestOrder
          return own.change
        }
        // Nothing this transaction wrote or saw is answered, told or shown before it is on disk:
        // the flusher tells it once a barrier has confirmed it, while this thread goes on.
        let made = results.filter { if case .applied = $0 { true } else { false } }.count
        flusher.publish(
          .commit(
            SharedCommit(
              durable: durable, tickets: tickets, results: results.map(withReceipt), events: replayed + events,
              newestOrder: newestOrder, made: made, started: started, needsFlush: head != before)))
        known = head
        sequence.store(head, ordering: .relaxed)
        return
      } catch let error as PostgresError where error.sqlState?.isRetryable == true && attempt < Self.attempts {
        retries.add(1, ordering: .relaxed)
        logger.warning("shared commit retried (attempt \(attempt + 1)): \(error)")
        flusher.publish(.ended(durable, .failed(CommitFailure(.logic, "the transaction was retried: \(error)"))))
        reloadShop()
      } catch let error as PostgresError where error.isUnavailable {
        linkDown("\(error)")
        // The commit may or may not have happened: the shop is loaded again once the database
        // answers, and a keyed order retried then answers as its first attempt did.
        let failure = CommitFailure(
          .unreachable, "the database could not be reached, so the change was not acknowledged: \(error)")
        flusher.publish(.ended(durable, .failed(failure)))
        figures.recordFailure(.unreachable)
        for ticket in tickets { ticket.finish(.failed(failure)) }
        return
      } catch {
        logger.error("shared commit of \(tickets.count) changes failed: \(error); the shop is loaded again")
        let failure = CommitFailure(.logic, "\(error)")
        flusher.publish(.ended(durable, .failed(failure)))
        reloadShop()
        figures.recordFailure(.logic)
        for ticket in tickets { ticket.finish(.failed(failure)) }
        return
      }
    }
  }

  /// Changes this node has taken and not yet sent to the database: near `queueCapacity`, the
  /// database is not keeping up.
  package var waiting: Int { queue.withLock { $0.tickets.count } }

  /// A keyed retry whose first answer is only in the store (`.reordered`) answered as a retry
  /// whose receipt is at hand (`.ordered(receipt, repeated: true)`): the receipt is read here,
  /// on this thread's own connection, so the connection's loop never waits on the database to
  /// write the reply. Reading it fails that one request, not the others in the transaction.
  private func withReceipt(_ result: ChangeTicket.Result) -> ChangeTicket.Result {
    guard case .applied(var applied) = result, case .reordered(let key, let id) = applied.outcome else { return result }
    do {
      guard let receipt = try database.writerReceipt(of: key), receipt.order.id == id else {
        throw StorageError("the receipt of order \(id) is missing from the database")
      }
      applied.outcome = .ordered(receipt, repeated: true)
      return .applied(applied)
    } catch {
      return .failed(CommitFailure(error))
    }
  }

  /// Replays other nodes' changes into the cache and returns their events, for watchers once
  /// the changes are known to be on disk; throws when the cache has diverged from what those
  /// nodes had, and the shop must be loaded again.
  private func replay(_ records: [ChangeRecord]) throws -> [StockEvent] {
    var events: [StockEvent] = []
    for record in records {
      events += try shop.replayShared(record)
      known = record.sequence
      sequence.store(record.sequence, ordering: .relaxed)
      replayedChanges.add(1, ordering: .relaxed)
    }
    return events
  }

  /// Waits until every change committed so far is on PostgreSQL's disk, when commits do not
  /// wait for that themselves (`--fsync always`). A barrier that fails leaves it unknown
  /// whether they are, as a commit whose answer was lost: the link counts as down, and the shop
  /// is loaded again once the database answers.
  private func flushBarrier() throws {
    guard database.flushesSeparately else { return }
    do {
      try database.flushBarrier(node: node)
    } catch let error as PostgresError where error.isUnavailable {
      throw error
    } catch {
      throw PostgresError(.connectionLost, "the changes could not be confirmed on disk: \(error)")
    }
  }

  /// Replays the changes other nodes committed, up to `reach`: for reads and announcements the
  /// durable head, which every acknowledged change is within and which needs no flush of this
  /// node's, so that a read never waits for a flush.
  private func catchUp(to reach: CatchUpReach) {
    lastPoll = ContinuousClock.now
    do {
      // One round trip in the usual case: the head and everything up to it come together.
      while true {
        let (head, records, flushed) = try database.changesThroughHead(after: known, reach: reach)
        guard let records else {
          // The log no longer reaches back to this node's shop.
          reloadShop()
          return
        }
        // A change committed without waiting for its flush is not shown before it is on disk.
        if !flushed && !records.isEmpty { try flushBarrier() }
        let events = try replay(records)
        // In turn after this node's commits still on their way to disk; nothing to tell, no hand-off.
        if !events.isEmpty { flusher.publish(.replayed(events)) }
        if known >= head { return }
      }
    } catch let error as PostgresError where error.isUnavailable {
      linkDown("\(error)")
    } catch {
      logger.error("replaying other nodes' changes failed: \(error); the shop is loaded again")
      reloadShop()
    }
  }

  /// Loads the whole shop from the database into the cache; watchers hear of every level that
  /// moved. When it cannot, the link is down (if it was not already).
  private func reloadShop() {
    do {
      try loadAgain()
    } catch let error as PostgresError where error.isUnavailable {
      linkDown("\(error)")
    } catch {
      logger.error("cannot load the shop from \(database.location): \(error)")
      linkDown("the shop cannot be loaded from the database: \(error)")
    }
  }

  private func loadAgain() throws {
    // What was committed before is told first: no event from before the load comes after it.
    flusher.drain()
    database.dropConfirmer()
    let loaded = try reload()
    // What it loaded may hold a change committed without waiting for its flush.
    try flushBarrier()
    shop.replaceShared(loaded.shop)
    known = loaded.sequence
    sequence.store(loaded.sequence, ordering: .relaxed)
    reloads.add(1, ordering: .relaxed)
  }

  private func linkDown(_ reason: String) {
    guard linkUp else { return }
    linkUp = false
    connected.store(false, ordering: .relaxed)
    logger.error("lost the store at \(database.location): \(reason); refusing changes until it answers")
    shop.sharedLinkLost(reason)
  }

  /// Tried every quarter second while the link is down: whatever this node missed, and
  /// whatever of its own may or may not have committed, loading the shop again settles.
  private func reconnect() {
    guard (try? loadAgain()) != nil else { return }
    linkUp = true
    connected.store(true, ordering: .relaxed)
    lastPoll = ContinuousClock.now
    logger.info("the store at \(database.location) answers again; the shop was loaded again at change \(known)")
    shop.sharedLinkRestored()
  }

  private func housekeeping() {
    guard ContinuousClock.now - lastHousekeeping > .seconds(60) else { return }
    lastHousekeeping = ContinuousClock.now
    do {
      // An hour past the shop's own retention, so a key the shop still honours is always there.
      try database.expireKeys(olderThan: Date().addingTimeInterval(-(ShopLimits().orderKeyRetention + 3600)))
      // A node away longer than this loads the whole shop when it is back.
      try database.pruneChanges(olderThan: 3600, keeping: 100_000)
      // This node flushes far more often than that while it runs; a stopped node's row goes.
      try database.pruneNodeFlushes(olderThan: 86_400)
    } catch {
      logger.warning("store housekeeping failed: \(error)")
    }
  }

  // MARK: The feed thread

  private func runFeed() {
    while !queue.withLock({ $0.stopping }) {
      do {
        if !feed.isListening { try feed.listen() }
        if let newest = try feed.newest(waitingUpTo: 250) {
          queue.withLock { $0.announced = max($0.announced, newest) }
          wakeUp.signal()
        }
      } catch {
        queue.withLock { $0.lost = "\(error)" }
        wakeUp.signal()
        // Try again after a pause, not in a spin, while the database is away.
        Semaphore().wait(timeout: .milliseconds(250))
      }
    }
  }
}

import Foundation
import StockroomDomain
import StockroomEngine
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
package final class SharedWriter: ChangePath, ChangeQueue, @unchecked Sendable {
  struct Queue {
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
  let logger: Logger
  let reload: @Sendable () throws -> (shop: ShopState, sequence: Int)
  package let reads: ReadMode
  /// The transaction this node is committing, whose changes the cache already shows: a read
  /// that may show them is answered after it.
  let inFlight = Mutex<CommitTicket?>(nil)
  let queue = Mutex(Queue())
  let wakeUp = Semaphore()
  /// Both made by the starter the writer was given: the engine starts no thread of its own.
  let writer: any WorkerThread
  /// Never joined: it ends within a poll of `stop`, on its own.
  let feedThread: any WorkerThread
  let feed: PostgresChangeFeed
  /// Tells each commit once it is on disk; replies and events go only through it.
  let flusher: SharedFlusher
  /// Stamps the rows, times the commits, and says when a poll and housekeeping are due.
  let clock: any EngineClock

  /// The cache of the store; changed only on the writer's thread.
  let shop: LockedShop

  // The writer thread's own.
  var known: Int
  var linkUp = true
  /// When the writer last read the store's head, and last did its housekeeping (`clock.now()`).
  var lastPoll: UInt64
  var lastHousekeeping: UInt64

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
    logger: Logger, starter: any ThreadStarter, clock: any EngineClock,
    reload: @escaping @Sendable () throws -> (shop: ShopState, sequence: Int)
  ) {
    self.reads = reads
    self.database = database
    self.shop = shop
    self.node = node
    self.logger = logger
    self.reload = reload
    self.clock = clock
    lastPoll = clock.now()
    lastHousekeeping = clock.now()
    self.feed = PostgresChangeFeed(url: database.url)
    known = sequence
    self.sequence = Atomic(sequence)
    writer = starter.thread(named: "sr-writer", quality: .userInitiated)
    feedThread = starter.thread(named: "sr-feed", quality: .userInitiated)
    flusher = SharedFlusher(
      database: database, node: node, shop: shop, figures: figures, starter: starter, clock: clock, failures: wakeUp)
  }

  package var history: (any ShopHistory)? { database }
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
  package func enqueue(_ ticket: ChangeTicket) {
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
  package func enqueue(_ read: ReadIndexTicket) {
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

  /// Changes this node has taken and not yet sent to the database: near `queueCapacity`, the
  /// database is not keeping up.
  package var waiting: Int { queue.withLock { $0.tickets.count } }

  // MARK: The writer thread

  func runWriter() {
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
      } else if linkUp && clock.elapsed(since: lastPoll) > .seconds(1) {
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

  func release(_ reads: [ReadIndexTicket]) {
    guard !reads.isEmpty else { return }
    readCounts.waited.add(reads.count, ordering: .relaxed)
    if !linkUp { readCounts.unconfirmed.add(reads.count, ordering: .relaxed) }
    for read in reads { read.finish(linkUp ? .current : .unconfirmed) }
  }
}

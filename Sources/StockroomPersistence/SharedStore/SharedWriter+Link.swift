import Foundation
import StockroomDomain
import StockroomEngine
import StockroomLogging
import StockroomStorage
import StockroomSystem
import Synchronization

/// How the shared writer keeps its cache with the store: catching up with the other nodes'
/// changes, loading the shop again, losing the store and finding it again, and housekeeping.
extension SharedWriter {
  /// Waits until every change committed so far is on PostgreSQL's disk, when commits do not
  /// wait for that themselves (`--fsync always`). A barrier that fails leaves it unknown
  /// whether they are, as a commit whose answer was lost: the link counts as down, and the shop
  /// is loaded again once the database answers.
  func flushBarrier() throws {
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
  func catchUp(to reach: CatchUpReach) {
    lastPoll = clock.now()
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
  func reloadShop() {
    do {
      try loadAgain()
    } catch let error as PostgresError where error.isUnavailable {
      linkDown("\(error)")
    } catch {
      logger.error("cannot load the shop from \(database.location): \(error)")
      linkDown("the shop cannot be loaded from the database: \(error)")
    }
  }

  func loadAgain() throws {
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

  func linkDown(_ reason: String) {
    guard linkUp else { return }
    linkUp = false
    connected.store(false, ordering: .relaxed)
    logger.error("lost the store at \(database.location): \(reason); refusing changes until it answers")
    shop.sharedLinkLost(reason)
  }

  /// Tried every quarter second while the link is down: whatever this node missed, and
  /// whatever of its own may or may not have committed, loading the shop again settles.
  func reconnect() {
    guard (try? loadAgain()) != nil else { return }
    linkUp = true
    connected.store(true, ordering: .relaxed)
    lastPoll = clock.now()
    logger.info("the store at \(database.location) answers again; the shop was loaded again at change \(known)")
    shop.sharedLinkRestored()
  }

  func housekeeping() {
    guard clock.elapsed(since: lastHousekeeping) > .seconds(60) else { return }
    lastHousekeeping = clock.now()
    do {
      try database.expireKeys(olderThan: shop.limits.keyExpiry(now: clock.wallTime()))
      // A node away longer than this loads the whole shop when it is back.
      try database.pruneChanges(olderThan: 3600, keeping: 100_000)
      // This node flushes far more often than that while it runs; a stopped node's row goes.
      try database.pruneNodeFlushes(olderThan: 86_400)
    } catch {
      logger.warning("store housekeeping failed: \(error)")
    }
  }
}

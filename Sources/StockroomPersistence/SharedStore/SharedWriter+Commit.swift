import Foundation
import StockroomDomain
import StockroomEngine
import StockroomLogging
import StockroomStorage
import StockroomSystem
import Synchronization

/// This node's changes: one transaction of the shared writer's, retried after a conflict, and
/// the other nodes' changes it replays first.
extension SharedWriter {
  /// One try's changes are in the cache from `applyShared` until its transaction ends: reads
  /// that show them wait for `durable`, which ends as the transaction does.
  func beginAttempt() -> CommitTicket {
    let durable = CommitTicket()
    inFlight.withLock { $0 = durable }
    return durable
  }

  func commit(_ first: [ChangeTicket]) {
    var tickets = first
    var results: [ChangeTicket.Result] = []
    var events: [StockEvent] = []
    var newestOrder: Int?
    for attempt in 1...Self.attempts {
      flusher.beginCommit()
      let started = clock.now()
      let durable = beginAttempt()
      do {
        var replayed: [StockEvent] = []
        let before = known
        let head = try database.commitChange(after: known, node: node) { missed in
          replayed = try replay(missed)
          // The writers' lock may have taken a while to get (other nodes' commits go first):
          // what arrived meanwhile joins this transaction rather than wait for the next turn.
          tickets += queue.withLock { $0.take(upTo: Self.batchLimit - tickets.count) }
          let (own, batch) = apply(tickets.map(\.mutation))
          results = own.results
          events = own.events
          newestOrder = batch.receipts.last?.order.id
          guard !own.logged.isEmpty else { return nil }
          return PreparedChange(
            batch: batch, mutations: own.logged, digest: own.digest, countersBefore: own.countersBefore)
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

  /// Applies `mutations` to the cache (`LockedShop.applyShared`), and the rows of those that
  /// changed something, stamped now, for the transaction to write.
  func apply(_ mutations: [Mutation]) -> (SharedApplication, JournalBatch) {
    let now = clock.wallTime()
    var batch = JournalBatch()
    let own = shop.applyShared(mutations) { applied, shop in
      let levels = applied.events.map { shop.level(of: $0.item) }
      batch.record(applied, levels: levels, counters: shop.counters, at: now)
    }
    return (own, batch)
  }

  /// A keyed retry whose first answer is only in the store (`.reordered`) answered as a retry
  /// whose receipt is at hand (`.ordered(receipt, repeated: true)`): the receipt is read here,
  /// on this thread's own connection, so the connection's loop never waits on the database to
  /// write the reply. Reading it fails that one request, not the others in the transaction.
  func withReceipt(_ result: ChangeTicket.Result) -> ChangeTicket.Result {
    guard case .applied(var applied) = result, case .reordered(let key, let id) = applied.outcome else { return result }
    do {
      guard let receipt = try database.writerReceipt(of: key), receipt.order.id == id else {
        throw MissingReceipt(orderID: id)
      }
      applied.outcome = .ordered(receipt, repeated: true)
      return .applied(applied)
    } catch {
      return .failed(CommitFailure(postgres: error))
    }
  }

  /// Replays other nodes' changes into the cache and returns their events, for watchers once
  /// the changes are known to be on disk; throws when the cache has diverged from what those
  /// nodes had, and the shop must be loaded again.
  func replay(_ records: [ChangeRecord]) throws -> [StockEvent] {
    var events: [StockEvent] = []
    for record in records {
      guard let replayed = try shop.replayShared(record.mutations, digest: record.digest) else {
        throw StorageError("replaying change \(record.sequence) from \(record.node) did not give what it gave there")
      }
      events += replayed
      known = record.sequence
      sequence.store(record.sequence, ordering: .relaxed)
      replayedChanges.add(1, ordering: .relaxed)
    }
    return events
  }
}

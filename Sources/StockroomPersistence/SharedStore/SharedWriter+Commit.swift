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
  /// One try's changes are in the cache from `apply` until its transaction ends: reads
  /// that show them wait for `durable`, which ends as the transaction does.
  func beginAttempt() -> CommitTicket {
    let durable = CommitTicket()
    inFlight.withLock { $0 = durable }
    return durable
  }

  func commit(_ first: [ChangeTicket]) {
    var tickets = first
    var results: [Result<Applied, ShopError>] = []
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
        // Committed: each change is answered now, and its reply held until `durable` says it
        // is on disk, as a reply on SQLite is held for its group commit, so the connection can
        // go on. Nothing this transaction wrote or saw is sent, told or shown before it is on
        // disk: the flusher completes `durable` and tells the events once a barrier has
        // confirmed it, while this thread goes on.
        let needsFlush = head != before
        for (ticket, result) in zip(tickets, results) { ticket.finish(answer(result, durable: durable)) }
        let made = results.filter { if case .success = $0 { true } else { false } }.count
        flusher.publish(
          .commit(
            SharedCommit(
              durable: durable, events: replayed + events, newestOrder: newestOrder, made: made, started: started,
              needsFlush: needsFlush)))
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

  /// Applies `mutations` to the cache one by one through `LockedShop.apply`, as every store
  /// applies its changes, and the rows of those that changed something, stamped now, for the
  /// transaction to write. Only this thread changes the cache, so the digest read after them is
  /// of the shop they left.
  func apply(_ mutations: [Mutation]) -> (SharedApplication, JournalBatch) {
    let now = clock.wallTime()
    var batch = JournalBatch()
    var own = SharedApplication(countersBefore: shop.read { $0.counters })
    for mutation in mutations {
      do throws(ShopError) {
        var logged = false
        let applied = try shop.apply(mutation) { applied, shop in
          switch applied.outcome {
          case .reordered, .ordered(_, repeated: true):
            // A retried keyed order changes nothing: its first attempt is already in the store.
            logged = false
          default:
            batch.record(applied, stock: shop.stock, counters: shop.counters, at: now)
            logged = true
          }
        }
        own.results.append(.success(applied))
        guard logged else { continue }
        own.logged.append(mutation)
        own.events += applied.events
      } catch {
        own.results.append(.failure(error))
      }
    }
    if !own.logged.isEmpty {
      let (events, logged) = (own.events, own.logged)
      own.digest = shop.read { ShopDigest.of($0, after: events, from: logged) }
    }
    return (own, batch)
  }

  /// A change's answer: applied, with the commit its reply waits for, or refused. A keyed retry
  /// whose first answer is only in the store (`.reordered`) is answered as a retry whose receipt
  /// is at hand (`.ordered(receipt, repeated: true)`): the receipt is read here, on this
  /// thread's own connection, so the connection's loop never waits on the database to write the
  /// reply. Reading it fails that one request, not the others in the transaction.
  func answer(_ result: Result<Applied, ShopError>, durable: CommitTicket) -> ChangeTicket.Result {
    guard case .success(var applied) = result else {
      if case .failure(let refusal) = result { return .refused(refusal) }
      preconditionFailure("a result is applied or refused")
    }
    guard case .reordered(let key, let id) = applied.outcome else { return .applied(applied, durable) }
    do {
      guard let receipt = try database.writerReceipt(of: key), receipt.order.id == id else {
        throw MissingReceipt(orderID: id)
      }
      applied.outcome = .ordered(receipt, repeated: true)
      // It changed nothing, but its first attempt may be in this very transaction.
      return .applied(applied, durable)
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

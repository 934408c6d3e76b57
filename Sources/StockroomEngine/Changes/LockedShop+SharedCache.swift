import Foundation
import StockroomDomain
import StockroomStorage
import Synchronization

/// The shop as the cache of a store shared by several nodes: changed only by the shared
/// writer's thread (`SharedWriter`), in the store's commit order.
extension LockedShop {
  /// Applies this node's mutations to the cache, in order, while the shared writer holds the
  /// store's writers' lock; returns each one's result, the rows and log entry of those that
  /// changed something (nil when none did), their events and the newest order among them.
  package func applyShared(_ mutations: [Mutation]) -> (
    results: [ChangeTicket.Result], change: PreparedChange?, events: [StockEvent], newestOrder: Int?
  ) {
    let now = Date()
    return state.withLock { state in
      let before = state.shop.counters
      var batch = JournalBatch()
      var results: [ChangeTicket.Result] = []
      var logged: [Mutation] = []
      var events: [StockEvent] = []
      for mutation in mutations {
        do throws(ShopError) {
          let applied = try state.shop.apply(mutation)
          results.append(.applied(applied))
          switch applied.outcome {
          case .reordered, .ordered(_, repeated: true):
            // A retried keyed order changes nothing: its first attempt is already in the store.
            continue
          default: noteAccounts(applied)
          }
          let levels = applied.events.map { state.shop.level(of: $0.item) }
          batch.record(applied, levels: levels, counters: state.shop.counters, at: now)
          logged.append(mutation)
          events += applied.events
        } catch {
          results.append(.refused(error))
        }
      }
      guard !logged.isEmpty else { return (results, nil, [], nil) }
      let digest = ShopDigest.of(state.shop, after: events)
      return (
        results, PreparedChange(batch: batch, mutations: logged, digest: digest, countersBefore: before), events,
        batch.receipts.last?.order.id
      )
    }
  }

  /// Replays a change another node committed, and returns its events for `committed` to
  /// deliver once the change is known to be on disk (it may have been committed without waiting
  /// for its flush). Throws when the replay does not end where it ended on that node: the cache
  /// has diverged and must be loaded again.
  package func replayShared(_ record: ChangeRecord) throws -> [StockEvent] {
    try state.withLock { state throws -> [StockEvent] in
      var events: [StockEvent] = []
      for mutation in record.mutations {
        let applied = try state.shop.apply(mutation)
        noteAccounts(applied)
        events += applied.events
      }
      guard ShopDigest.of(state.shop, after: events) == record.digest else {
        throw StorageError("replaying change \(record.sequence) from \(record.node) did not give what it gave there")
      }
      // Already in the store, so their receipts are read there.
      state.shop.settleReceipts(through: state.shop.counters.nextOrderID - 1)
      return events
    }
  }

  /// The shop as loaded from the store again: watchers get a `cause=resync` event for every
  /// item whose level is not what they were last told.
  package func replaceShared(_ shop: ShopState) {
    let wake = state.withLock { state in
      let old = state.shop
      replaceShop(shop, in: &state)
      var events: [StockEvent] = []
      for item in Set(old.stock.keys).union(shop.stock.keys).sorted() {
        let was = old.level(of: item)?.current ?? 0
        let now = shop.level(of: item)?.current ?? 0
        guard was != now else { continue }
        events.append(
          StockEvent(item: item, name: shop.displayName(of: item), level: now, change: now - was, cause: .resync))
      }
      return hub.deliver(events)
    }
    for mailbox in wake { mailbox.notify() }
  }

  /// The store cannot be reached: changes are refused, reads go on from the cache, and
  /// watchers are told their levels may go stale.
  package func sharedLinkLost(_ reason: String) {
    let wake = state.withLock { state in
      state.writability = .unreachable(reason)
      return hub.announce(.down(reason: reason))
    }
    for mailbox in wake { mailbox.notify() }
  }

  /// The store answers again and the cache was loaded from it (resync events already sent).
  package func sharedLinkRestored() {
    let wake = state.withLock { state in
      state.restoreWritability()
      return hub.announce(.up)
    }
    for mailbox in wake { mailbox.notify() }
  }
}

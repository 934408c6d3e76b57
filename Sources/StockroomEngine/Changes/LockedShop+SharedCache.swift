import StockroomDomain
import Synchronization

/// The shop as the cache of a store shared by several nodes: changed only by the shared
/// writer's thread (`SharedWriter`), in the store's commit order. This node's own changes go
/// through `apply`, as on every store; here are the cache's own: other nodes' changes replayed,
/// the shop loaded again, and the link to the store lost and restored.
extension LockedShop {
  /// Replays a change another node committed (its `mutations`, and the `digest` of the shop it
  /// left there), and returns its events for `committed` to deliver once the change is known to
  /// be on disk (it may have been committed without waiting for its flush). nil when the replay
  /// does not end where it ended on that node: the cache has diverged and must be loaded again.
  package func replayShared(_ mutations: [Mutation], digest: String) throws(ShopError) -> [StockEvent]? {
    try state.withLock { state throws(ShopError) -> [StockEvent]? in
      var events: [StockEvent] = []
      for mutation in mutations {
        let applied = try state.shop.apply(mutation)
        noteAccounts(applied)
        events += applied.events
      }
      guard ShopDigest.of(state.shop, after: events, from: mutations) == digest else { return nil }
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

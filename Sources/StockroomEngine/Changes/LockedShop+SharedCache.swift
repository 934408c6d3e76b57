import StockroomDomain
import Synchronization

/// The shop as the cache of a store shared by several nodes: changed only by the shared
/// writer's thread (`SharedWriter`), in the store's commit order.
extension LockedShop {
  /// Applies this node's mutations to the cache, in order, while the shared writer holds the
  /// store's writers' lock, and returns what they gave. `record` is handed each change that
  /// changed something, with the shop right after it, under the lock: the writer writes its rows
  /// from that, so the rows keep the order the changes were made in.
  package func applyShared(
    _ mutations: [Mutation], record: (Applied, borrowing ShopState) -> Void
  ) -> SharedApplication {
    state.withLock { state in
      var outcome = SharedApplication(countersBefore: state.shop.counters)
      for mutation in mutations {
        do throws(ShopError) {
          let applied = try state.shop.apply(mutation)
          outcome.results.append(.applied(applied))
          switch applied.outcome {
          case .reordered, .ordered(_, repeated: true):
            // A retried keyed order changes nothing: its first attempt is already in the store.
            continue
          default: noteAccounts(applied)
          }
          record(applied, state.shop)
          outcome.logged.append(mutation)
          outcome.events += applied.events
        } catch {
          outcome.results.append(.refused(error))
        }
      }
      if !outcome.logged.isEmpty { outcome.digest = ShopDigest.of(state.shop, after: outcome.events) }
      return outcome
    }
  }

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
      guard ShopDigest.of(state.shop, after: events) == digest else { return nil }
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

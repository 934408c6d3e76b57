import Foundation
import StockroomDomain
import Synchronization

/// The one shop every connection reads and changes, behind its lock, and whether it takes changes.
///
/// A `Mutex` around the plain `ShopState` value makes every command atomic against every other
/// at about the cost of an uncontended lock; an actor would cost a task hop per request. It is
/// owned by the `Shop` and handed to the change path (`ChangePath`) at its construction, which
/// calls in here and is never called back: nothing here does I/O, or any of it under the lock.
package final class LockedShop: Sendable {
  struct Guarded {
    var shop: ShopState
    var writability = Writability.writable
    /// Set when the file failed its whole-file check: what writability returns to once a
    /// passing failure is over, since only a person can end this one.
    var damage: String?

    /// Writes are taken again, unless the file is damaged.
    mutating func restoreWritability() {
      writability = damage.map(Writability.damaged) ?? .writable
    }
  }

  let state: Mutex<Guarded>
  /// Grows whenever an account is made, changed or removed (or the shop is read back), so a
  /// session can keep its role between requests and notice the moment it may be stale.
  let accountGeneration = Atomic<Int>(0)
  package let hub = WatchHub()
  /// Fixed for the shop's life, so readable without the lock.
  package let limits: ShopLimits

  package init(_ shop: ShopState) {
    limits = shop.limits
    state = Mutex(Guarded(shop: shop))
  }

  /// Runs `body` on a consistent view of the shop. Keep it short: the lock is held throughout.
  package func read<T: Sendable, E: Error>(_ body: (borrowing ShopState) throws(E) -> T) throws(E) -> T {
    try state.withLock { state throws(E) in try body(state.shop) }
  }

  package var readOnlyReason: String? { state.withLock { $0.writability.reason } }

  /// The shared store cannot be reached (never true for memory or SQLite).
  package var linkDown: Bool { state.withLock { $0.writability.isUnreachable } }

  package var accountsGeneration: Int { accountGeneration.load(ordering: .acquiring) }

  /// Throws what a change is answered while the shop refuses changes.
  package func checkWritable() throws(ShopError) {
    try state.withLock { state throws(ShopError) in
      if let refusal = state.writability.refusal { throw refusal }
    }
  }

  /// Applies one mutation atomically, the one way every change path changes the shop: `record`
  /// is handed the change with the shop right after it, while the lock is still held, so what it
  /// does (queue the change's rows for the next commit, keep it in the memory ledger, or write
  /// its rows into the shared writer's transaction) keeps the order the changes were made in.
  /// Not escaping, so a change costs no closure allocation. What `record` decides it keeps in
  /// the caller's own variable: a result generic over it, `(Applied, Recorded)`, had its
  /// metadata looked up at run time by the change paths in other modules (~330 instructions a
  /// change).
  package func apply(
    _ mutation: Mutation, record: (Applied, borrowing ShopState) -> Void
  ) throws(ShopError) -> Applied {
    try state.withLock { state throws(ShopError) in
      let applied = try apply(mutation, to: &state)
      // Recorded first, so that the change is moved into the answer, not copied for it.
      record(applied, state.shop)
      return applied
    }
  }

  /// The change, unless writes are refused; a session holding a role must look again once an
  /// account changed.
  private func apply(_ mutation: Mutation, to state: inout Guarded) throws(ShopError) -> Applied {
    if let refusal = state.writability.refusal { throw refusal }
    let applied = try state.shop.apply(mutation)
    noteAccounts(applied)
    return applied
  }

  /// Watchers hear of committed changes; the orders through `newestOrder` are on disk, so
  /// their receipts are read there from now on.
  package func committed(_ events: [StockEvent], settledThrough newestOrder: Int?) {
    if let newestOrder { state.withLock { $0.shop.settleReceipts(through: newestOrder) } }
    // Outside the shop's lock: only the change path's one thread delivers committed changes, so
    // they still reach watchers in commit order.
    guard !events.isEmpty else { return }
    for mailbox in hub.deliver(events) { mailbox.notify() }
  }

  /// `committed(_:settledThrough:)` for events gathered a change at a time, as a group commit
  /// holds them: put in one list only when someone watches.
  package func committed(_ groups: [[StockEvent]], settledThrough newestOrder: Int?) {
    committed(hub.watcherCount > 0 ? groups.flatMap { $0 } : [], settledThrough: newestOrder)
  }

  /// The database failed its whole-file check: writes are refused until a person repairs it.
  package func markDamaged(_ damage: String) {
    state.withLock { state in
      state.damage = damage
      // A passing failure keeps its place (and its read-back); recovering from it lands here.
      if state.writability == .writable { state.writability = .damaged(damage) }
    }
  }

  /// A session holding a role must look again once an account changed.
  func noteAccounts(_ applied: Applied) {
    switch applied.outcome {
    case .accountSaved, .accountDeleted: accountGeneration.add(1, ordering: .releasing)
    default: break
    }
  }

  /// The shop as read back from its store: any account in it may have changed, so every
  /// session's role is looked up again.
  func replaceShop(_ shop: ShopState, in state: inout Guarded) {
    state.shop = shop
    accountGeneration.add(1, ordering: .releasing)
  }
}

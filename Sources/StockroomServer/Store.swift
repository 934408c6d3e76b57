import StockroomDomain
import Synchronization

/// The one shared shop every connection reads and changes.
///
/// A `Mutex` around the plain `ShopState` value makes every command atomic against every other
/// at about the cost of an uncontended lock; an actor would cost a task hop per request. All
/// changes arrive as `Mutation` values through `apply`, the narrow door a journal can stand at.
/// Nothing here does I/O while holding the lock.
final class Store: Sendable {
  private let state: Mutex<ShopState>
  let hub = WatchHub()
  /// Fixed for the store's life, so readable without the lock.
  let limits: ShopLimits

  init(_ state: ShopState) {
    self.limits = state.limits
    self.state = Mutex(state)
  }

  /// Applies one mutation atomically, then wakes the watchers it concerns.
  func apply(_ mutation: Mutation) throws(ShopError) -> Applied {
    let (applied, wake): (Applied, [EventMailbox]) = try state.withLock { state throws(ShopError) in
      let applied = try state.apply(mutation)
      return (applied, hub.deliver(applied.events))
    }
    for mailbox in wake { mailbox.notify() }
    return applied
  }

  /// Runs `body` on a consistent view of the shop. Keep it short: the lock is held throughout.
  func read<T: Sendable, E: Error>(_ body: (borrowing ShopState) throws(E) -> T) throws(E) -> T {
    try state.withLock { state throws(E) in try body(state) }
  }
}

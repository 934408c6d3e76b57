import StockroomDomain

/// The change path of a shop kept in memory only: each change is applied and answered at once,
/// with nothing to wait for.
package final class MemoryChanges: ChangePath {
  private let shop: LockedShop
  /// Stamps the ledger kept in memory.
  private let clock: any EngineClock

  package init(shop: LockedShop, clock: any EngineClock) {
    self.shop = shop
    self.clock = clock
  }

  package var history: (any ShopHistory)? { nil }
  package var commitFigures: CommitFigures? { nil }
  /// Applied and answered at once: nothing is ever waiting to be saved.
  package var uncommitted: CommitTicket? { nil }

  package func start() {}

  package func submit(_ mutation: Mutation) throws(ShopError) -> SubmittedChange {
    .applied(try shop.applyInMemory(mutation, at: clock.wallTime()), nil)
  }

  package func stop() {}
}

import Foundation
import StockroomDomain
import StockroomStorage

/// The change path of a shop kept in memory only: each change is applied and answered at once,
/// with nothing to wait for.
package final class MemoryChanges: ChangePath {
  private let shop: LockedShop

  package init(shop: LockedShop) {
    self.shop = shop
  }

  package var journal: (any ShopJournal)? { nil }
  package var commitFigures: CommitFigures? { nil }
  /// Applied and answered at once: nothing is ever waiting to be saved.
  package var uncommitted: CommitTicket? { nil }

  package func start() {}

  package func submit(_ mutation: Mutation) throws(ShopError) -> SubmittedChange {
    .applied(try shop.applyInMemory(mutation, at: Date()), nil)
  }

  package func stop() {}
}

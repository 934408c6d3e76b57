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

  package func start() {}

  package func submit(_ mutation: Mutation) throws(ShopError) -> SubmittedChange {
    let (applied, _) = try shop.apply(mutation, at: Date(), journal: nil)
    return .applied(applied, nil)
  }

  package func stop() {}
}

import Foundation
import StockroomDomain

/// When a store drops an order key: the one rule for the SQLite committer and the shared writer.
extension ShopLimits {
  /// The oldest a kept key may be at `now`: an hour past the shop's own retention, so a key the
  /// shop still honours is always in the store. The limits are the ones the shop runs with
  /// (`LockedShop.limits`), never a default's.
  func keyExpiry(now: Date) -> Date {
    now.addingTimeInterval(-(orderKeyRetention + 3600))
  }
}

import StockroomDomain

/// What a shared-store change left behind, in a few bytes: the counters and the levels of the
/// items it changed. The node that made the change logs it; a node replaying the change compares,
/// and a difference means its cache has diverged (nodes with different catalogues, a bug) and
/// must be loaded again rather than trusted.
package enum ShopDigest {
  package static func of(_ shop: borrowing ShopState, after events: [StockEvent]) -> String {
    let counters = shop.counters
    var text =
      "o\(counters.nextOrderID) p\(counters.nextProductID) d\(counters.nextDiaryID) n\(counters.namesGeneration) m\(counters.ordersMade)"
    for item in Set(events.map(\.item)).sorted() {
      text += " \(item)=\(shop.level(of: item).map { String($0.current) } ?? "-")"
    }
    return text
  }
}

import StockroomDomain

/// The counters as rows of the `meta` table, a key each: one mapping for every store.
extension ShopCounters {
  /// Every counter with its key.
  var metaRows: [(key: String, value: Int)] {
    [
      ("next_order_id", nextOrderID), ("next_product_id", nextProductID), ("next_diary_id", nextDiaryID),
      ("names_generation", namesGeneration), ("orders_made", ordersMade),
    ]
  }

  /// The rows whose value moved since `saved` (all of them when it is nil): an order moves two of
  /// the five, and a commit writes only those.
  func metaRows(changedSince saved: ShopCounters?) -> [(key: String, value: Int)] {
    guard let saved else { return metaRows }
    return zip(metaRows, saved.metaRows).filter { $0.0.value != $0.1.value }.map(\.0)
  }

  /// The counters read in `metaRows`' order, `next` giving each value in turn: how a commit
  /// record holds them, without their keys (matching each key by name cost a fold of one-order
  /// records more than its rows' text).
  init(metaValues next: () throws -> Int) rethrows {
    self.init()
    nextOrderID = try next()
    nextProductID = try next()
    nextDiaryID = try next()
    namesGeneration = try next()
    ordersMade = try next()
  }

  /// Sets the counter kept under `key`; a key that is no counter (the probe's, say) is ignored.
  mutating func setMeta(_ key: String, to value: Int) {
    switch key {
    case "next_order_id": nextOrderID = value
    case "next_product_id": nextProductID = value
    case "next_diary_id": nextDiaryID = value
    case "names_generation": namesGeneration = value
    case "orders_made": ordersMade = value
    default: break
    }
  }
}

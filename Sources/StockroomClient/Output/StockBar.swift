import StockroomProtocol

/// A stock level drawn against the item's starting level (`initial=`), which every view of the
/// item shares: the same banana draws the same bar in STOCK, LIST and SHOW.
struct StockBar {
  static let width = 10

  var level: Int
  var reference: Int

  /// How full the shelf is, 0 to 1: at or above the starting level is full.
  var fraction: Double {
    guard level > 0 else { return 0 }
    guard reference > 0 else { return 1 }
    return min(1, Double(level) / Double(reference))
  }

  var text: String { text(width: Self.width) }

  /// The bar in `width` cells (the board's may have fewer), filled as STOCK fills its ten.
  func text(width: Int) -> String {
    let filled = level <= 0 ? 0 : max(1, Int((fraction * Double(width)).rounded(.down)))
    return String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
  }
}

extension StockBar {
  /// The bar for a row with `stock=` and `initial=`; nil without a starting level to draw against.
  static func of(_ row: Row) -> StockBar? {
    guard let level = row["stock"].flatMap({ Int($0) }), let initial = row["initial"].flatMap({ Int($0) })
    else { return nil }
    return StockBar(level: level, reference: initial)
  }
}

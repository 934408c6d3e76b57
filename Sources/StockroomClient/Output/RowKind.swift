import StockroomProtocol

/// What a data row is, read from its `kind=`; it decides which columns a person sees.
enum RowKind: String, Sendable {
  case category
  case fruit
  case juice
  case ingredient
  case section
  case dish
  case product
  case exhibit
  case expo
  case diary
  case order
  case taken
  case shortage
  case ledger

  init?(_ row: Row) {
    guard let kind = row["kind"], let known = RowKind(rawValue: kind) else { return nil }
    self = known
  }

  /// Things that have a stock level, which STOCK and ADD list without their names.
  var isStocked: Bool { self == .fruit || self == .dish || self == .product }

  /// How a count of them reads: `1 dish`, `2 dishes`.
  func counted(_ count: Int) -> String {
    let (one, many): (String, String) =
      switch self {
      case .category: ("category", "categories")
      case .dish: ("dish", "dishes")
      case .diary: ("diary entry", "diary entries")
      case .ledger: ("movement", "movements")
      case .taken: ("item", "items")
      default: (rawValue, rawValue + "s")
      }
    return "\(count) \(count == 1 ? one : many)"
  }
}

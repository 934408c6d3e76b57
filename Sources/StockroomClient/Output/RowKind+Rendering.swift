import StockroomProtocol

/// The protocol's row kinds as the client reads and words them for people.
extension RowKind {
  /// The kind a row's `kind=` names; nil when it names none, or one this client does not know.
  init?(_ row: Row) {
    guard let kind = row["kind"], let known = RowKind(rawValue: kind) else { return nil }
    self = known
  }

  /// Things that have a stock level, which STOCK and ADD list without their names.
  var isStocked: Bool { self == .fruit || self == .dish || self == .product }

  /// Rows that share the table of the rows of no kind around them rather than start one of
  /// their own: HELP's groups follow its commands in one listing, and WHO's users have no
  /// columns of their own.
  var joinsKindlessTable: Bool { self == .user || self == .group }

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

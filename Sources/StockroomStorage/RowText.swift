import StockroomDomain

/// Compact text for the few list-valued columns (an order's lines, what it took). Fields are
/// split by U+001F and records by U+001E, which names and ids may not contain.
enum RowText {
  static let field: Character = "\u{1F}"
  static let record: Character = "\u{1E}"

  static func join(_ records: [[String]]) -> String {
    records.map { $0.joined(separator: String(field)) }.joined(separator: String(record))
  }

  static func split(_ text: String) -> [[String]] {
    guard !text.isEmpty else { return [] }
    return text.split(separator: record, omittingEmptySubsequences: false).map {
      $0.split(separator: field, omittingEmptySubsequences: false).map(String.init)
    }
  }

  static func counts(_ counts: [ItemCount]) -> String {
    join(counts.map { [$0.item, String($0.count)] })
  }

  static func counts(from text: String) throws -> [ItemCount] {
    try split(text).map { fields in
      guard fields.count == 2, let count = Int(fields[1]) else { throw StorageError("bad item list '\(text)'") }
      return ItemCount(fields[0], count)
    }
  }

  static func lines(_ lines: [OrderLine]) -> String {
    join(
      lines.map { line in
        [
          line.item, line.name, line.kind.rawValue, String(line.quantity),
          line.unitPrice.map { String($0.minorUnits) } ?? "", line.unitPrice?.currency.rawValue ?? "",
        ]
      })
  }

  static func lines(from text: String) throws -> [OrderLine] {
    try split(text).map { fields in
      guard fields.count == 6, let kind = OrderLine.Kind(rawValue: fields[2]), let quantity = Int(fields[3]) else {
        throw StorageError("bad order line '\(fields.joined(separator: ","))'")
      }
      var unit: Money? = nil
      if let minor = Int(fields[4]), let currency = Currency(rawValue: fields[5]) {
        unit = Money(minorUnits: minor, currency: currency)
      }
      return OrderLine(item: fields[0], name: fields[1], kind: kind, quantity: quantity, unitPrice: unit)
    }
  }

  static func discount(_ discount: Discount?) -> String? {
    switch discount {
    case .percent(let percent)?: "percent:\(percent)"
    case .salePrice(let money)?: "sale:\(money.minorUnits)"
    case nil: nil
    }
  }

  static func discount(from text: String?, currency: Currency) throws -> Discount? {
    guard let text else { return nil }
    let parts = text.split(separator: ":")
    guard parts.count == 2, let number = Int(parts[1]) else { throw StorageError("bad discount '\(text)'") }
    switch parts[0] {
    case "percent": return .percent(number)
    case "sale": return .salePrice(Money(minorUnits: number, currency: currency))
    default: throw StorageError("bad discount '\(text)'")
    }
  }
}

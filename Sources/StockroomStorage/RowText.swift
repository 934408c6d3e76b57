import StockroomDomain

/// Compact text for the few list-valued columns (an order's lines, what it took). Fields are
/// split by U+001F and records by U+001E, which names and ids may not contain.
enum RowText {
  static let field: Character = "\u{1F}"
  static let record: Character = "\u{1E}"

  static func split(_ text: String) -> [[String]] {
    guard !text.isEmpty else { return [] }
    return text.split(separator: record, omittingEmptySubsequences: false).map {
      $0.split(separator: field, omittingEmptySubsequences: false).map(String.init)
    }
  }

  /// Records written field by field into one string, `fields` appending one record's fields:
  /// every order in a group commit has two of these columns, and building arrays of arrays to
  /// join them was the committer's largest Swift cost.
  private static func records<T>(_ items: [T], _ fields: (T, inout String) -> Void) -> String {
    var text = ""
    text.reserveCapacity(items.count * 32)
    for (index, item) in items.enumerated() {
      if index > 0 { text.append(record) }
      fields(item, &text)
    }
    return text
  }

  static func counts(_ counts: [ItemCount]) -> String {
    ItemCount.listText(counts)
  }

  static func counts(from text: String) throws -> [ItemCount] {
    try split(text).map { fields in
      guard fields.count == 2, let count = Int(fields[1]) else { throw DamagedRow("item list", text) }
      return ItemCount(fields[0], count)
    }
  }

  static func lines(_ lines: [OrderLine]) -> String {
    records(lines) { line, text in
      text += line.item
      text.append(field)
      text += line.name
      text.append(field)
      text += line.kind.rawValue
      text.append(field)
      text += String(line.quantity)
      text.append(field)
      if let unit = line.unitPrice { text += String(unit.minorUnits) }
      text.append(field)
      if let unit = line.unitPrice { text += unit.currency.rawValue }
    }
  }

  static func lines(from text: String) throws -> [OrderLine] {
    try split(text).map { fields in
      guard fields.count == 6, let kind = OrderLine.Kind(rawValue: fields[2]), let quantity = Int(fields[3]) else {
        throw DamagedRow("order line", fields.joined(separator: ","))
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
    guard parts.count == 2, let number = Int(parts[1]) else { throw DamagedRow("discount", text) }
    switch parts[0] {
    case "percent": return .percent(number)
    case "sale": return .salePrice(Money(minorUnits: number, currency: currency))
    default: throw DamagedRow("discount", text)
    }
  }
}

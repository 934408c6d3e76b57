import StockroomDomain
import StockroomText

/// Compact text for the few list-valued columns (an order's lines, what it took). Fields are
/// split by U+001F and records by U+001E, which names and ids may not contain.
enum RowText {
  static let field: Character = "\u{1F}"
  static let record: Character = "\u{1E}"
  static let fieldByte: UInt8 = 0x1F
  static let recordByte: UInt8 = 0x1E

  static func split(_ text: String) -> [[String]] {
    guard !text.isEmpty else { return [] }
    return text.split(separator: record, omittingEmptySubsequences: false).map {
      $0.split(separator: field, omittingEmptySubsequences: false).map(String.init)
    }
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
    var bytes: [UInt8] = []
    appendLines(lines, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// `lines` appended to UTF-8 bytes, field by field: every order in a group commit has this
  /// column, and building it as a string of strings was the commit record's largest cost.
  static func appendLines(_ lines: [OrderLine], to bytes: inout [UInt8]) {
    for (index, line) in lines.enumerated() {
      if index > 0 { bytes.append(recordByte) }
      UTF8Bytes.append(line.item, to: &bytes)
      bytes.append(fieldByte)
      UTF8Bytes.append(line.name, to: &bytes)
      bytes.append(fieldByte)
      UTF8Bytes.append(line.kind.rawValue, to: &bytes)
      bytes.append(fieldByte)
      DecimalText.append(line.quantity, to: &bytes)
      bytes.append(fieldByte)
      if let unit = line.unitPrice { DecimalText.append(unit.minorUnits, to: &bytes) }
      bytes.append(fieldByte)
      if let unit = line.unitPrice { UTF8Bytes.append(unit.currency.rawValue, to: &bytes) }
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

import StockroomProtocol
import StockroomText

/// Amounts as people read them, the way the server writes `price_text`: `₩28,800`, `$24.50`.
enum MoneyText {
  /// Nil when `plain` is not an amount the protocol writes, so the caller shows it unchanged.
  static func format(_ plain: String, currency: String) -> String? {
    let parts = plain.split(separator: ".", omittingEmptySubsequences: false)
    guard let whole = parts.first, !whole.isEmpty, whole.allSatisfy({ $0.isASCII && $0.isNumber }),
      parts.count <= 2
    else { return nil }
    let grouped = NumberText.grouped(String(whole))
    switch currency.uppercased() {
    case "KRW" where parts.count == 1: return "₩" + grouped
    case "USD":
      let cents = parts.count == 2 ? String(parts[1]) : "00"
      guard cents.count == 2, cents.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
      return "$" + grouped + "." + cents
    default: return nil
    }
  }

  /// An order's totals, one per currency, from `total_krw=` and `total_usd=` fields.
  static func totals(in row: Row) -> String? {
    var parts: [String] = []
    for field in row.fields where field.key.hasPrefix("total_") && field.key != "total_text" {
      let currency = String(field.key.dropFirst("total_".count))
      parts.append(format(field.value, currency: currency) ?? "\(field.value) \(currency.uppercased())")
    }
    return parts.isEmpty ? nil : parts.joined(separator: " + ")
  }
}

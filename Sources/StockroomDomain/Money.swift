import StockroomText

/// An amount in a currency's minor unit, so that prices and totals are exact.
public struct Money: Sendable, Hashable, Codable {
  public var minorUnits: Int
  public var currency: Currency

  public init(minorUnits: Int, currency: Currency) {
    self.minorUnits = minorUnits
    self.currency = currency
  }

  /// Largest price the shop accepts, in minor units; keeps totals far from overflow.
  public static let maximumMinorUnits = 10_000_000_000

  /// Reads `32000` for KRW or `12.50` / `12.5` / `12` for USD; no signs, no grouping.
  public static func parse(_ text: String, currency: Currency) throws(ShopError) -> Money {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    let bad = ShopError(
      .invalid,
      currency == .krw
        ? "price \(Echo.quoted(text)) is not a whole number of won"
        : "price \(Echo.quoted(text)) is not an amount like 12.50")
    guard parts.count <= 2, let whole = parts.first, !whole.isEmpty,
      whole.allSatisfy({ $0.isASCII && $0.isNumber })
    else { throw bad }
    var fraction = parts.count == 2 ? String(parts[1]) : ""
    guard fraction.allSatisfy({ $0.isASCII && $0.isNumber }), fraction.count <= currency.minorDigits,
      parts.count == 1 || !fraction.isEmpty
    else { throw bad }
    while fraction.count < currency.minorDigits { fraction += "0" }
    guard whole.count <= 12, let major = Int(whole), let minor = Int(fraction.isEmpty ? "0" : fraction) else {
      throw bad
    }
    var scale = 1
    for _ in 0..<currency.minorDigits { scale *= 10 }
    let units = major * scale + minor
    guard units <= maximumMinorUnits else { throw ShopError(.invalid, "price \(Echo.quoted(text)) is too large") }
    return Money(minorUnits: units, currency: currency)
  }

  /// Machine form: `32000` or `12.50`.
  public var plain: String {
    guard currency.minorDigits > 0 else { return String(minorUnits) }
    var scale = 1
    for _ in 0..<currency.minorDigits { scale *= 10 }
    var fraction = String(minorUnits % scale)
    while fraction.count < currency.minorDigits { fraction = "0" + fraction }
    return "\(minorUnits / scale).\(fraction)"
  }

  /// People's form: `₩32,000` or `$1,234.50`.
  public var display: String {
    let symbol = currency == .krw ? "₩" : "$"
    let text = plain
    let whole = text.prefix { $0 != "." }
    return symbol + NumberText.grouped(String(whole)) + text.dropFirst(whole.count)
  }

  public static func * (lhs: Money, rhs: Int) -> Money {
    Money(minorUnits: lhs.minorUnits * rhs, currency: lhs.currency)
  }
}

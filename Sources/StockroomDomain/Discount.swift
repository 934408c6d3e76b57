import StockroomText

/// A reduction on a dish's or product's price: a percentage off, or a fixed sale price.
public enum Discount: Sendable, Hashable, Codable {
  case percent(Int)
  case salePrice(Money)

  /// The price after the discount. Percentages round down to the currency's minor unit.
  public func apply(to price: Money) -> Money {
    switch self {
    case .percent(let percent):
      Money(minorUnits: price.minorUnits * (100 - percent) / 100, currency: price.currency)
    case .salePrice(let sale): sale
    }
  }

  /// How it is written on the wire: `10%` or the sale price.
  public var text: String {
    switch self {
    case .percent(let percent): "\(percent)%"
    case .salePrice(let sale): sale.plain
    }
  }

  /// Reads `10%`, a sale price such as `9.99`, or `none` (nil) for a product in `currency`.
  public static func parse(_ text: String, price: Money) throws(ShopError) -> Discount? {
    if text.lowercased() == "none" { return nil }
    if text.hasSuffix("%") {
      let digits = text.dropLast()
      guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let percent = Int(digits),
        (1...99).contains(percent)
      else {
        throw ShopError(.invalid, "discount \(Echo.quoted(text)) must be 1% to 99%")
      }
      return .percent(percent)
    }
    let sale = try Money.parse(text, currency: price.currency)
    return .salePrice(sale)
  }

  /// Refuses discounts that would not lower the price.
  public func validate(against price: Money) throws(ShopError) {
    switch self {
    case .percent(let percent):
      guard (1...99).contains(percent) else { throw ShopError(.invalid, "discount must be 1% to 99%") }
    case .salePrice(let sale):
      guard sale.currency == price.currency, sale.minorUnits < price.minorUnits else {
        throw ShopError(.invalid, "sale price \(sale.plain) must be below the price \(price.plain)")
      }
    }
  }
}

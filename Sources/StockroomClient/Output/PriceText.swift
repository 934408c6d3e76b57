import StockroomProtocol

/// A priced row's price in one cell, with its discount: `₩28,800 (10% off ₩32,000)`.
enum PriceText {
  /// The protocol's price fields, which this one text replaces.
  static let keys: Set<String> = [
    "price", "currency", "discount", "sale_price", "final_price", "price_text", "regular_price_text",
  ]

  static func of(_ row: Row) -> String? {
    guard let currency = row["currency"] else { return nil }
    func money(_ key: String) -> String? { row[key].map { MoneyText.format($0, currency: currency) ?? $0 } }
    guard let final = row["price_text"] ?? money("final_price") ?? money("price") else { return nil }
    let regular = row["regular_price_text"] ?? money("price")
    if let percent = row["discount"], let regular { return "\(final) (\(percent) off \(regular))" }
    if row["sale_price"] != nil, let regular { return "\(final) (sale, was \(regular))" }
    return final
  }
}

/// What a restart must bring back unchanged: every stock level, the newest orders and products,
/// and the shop's counters (not the connection's or the process's).
struct ShopSnapshot: Equatable, CustomStringConvertible {
  static let counters = ["orders", "orders_listed", "products", "diary_entries", "names_generation", "read_only"]

  var stock: [String]
  var orders: [String]
  var products: [String]
  var info: [String: String]

  init(_ client: LineClient) throws {
    stock = try client.request("STOCK").lines
    orders = try client.request("LIST orders").lines
    products = try client.request("LIST products").lines
    let row = try client.request("INFO").rows.first
    info = Dictionary(uniqueKeysWithValues: Self.counters.map { ($0, row?[$0] ?? "missing") })
  }

  /// The first difference, for a failure message short enough to read.
  func difference(from other: ShopSnapshot) -> String? {
    if info != other.info { return "INFO \(info) became \(other.info)" }
    for (name, mine, theirs) in [
      ("STOCK", stock, other.stock), ("LIST orders", orders, other.orders),
      ("LIST products", products, other.products),
    ] where mine != theirs {
      let index = (0..<min(mine.count, theirs.count)).first { mine[$0] != theirs[$0] } ?? min(mine.count, theirs.count)
      let before = index < mine.count ? mine[index] : "(no line)"
      let after = index < theirs.count ? theirs[index] : "(no line)"
      return "\(name) line \(index + 1) was \(before.prefix(200)) and is \(after.prefix(200))"
    }
    return nil
  }

  var description: String {
    "\(stock.count - 1) stocked items, \(info["orders"] ?? "?") orders, \(info["products"] ?? "?") products, \(info["diary_entries"] ?? "?") diary entries"
  }
}

/// What a restart must bring back unchanged: every stock level, the newest orders and products,
/// every fuzzing account's diary, and the shop's counters (not the connection's or the process's).
struct ShopSnapshot: Equatable, CustomStringConvertible {
  static let counters = ["orders", "orders_listed", "products", "diary_entries", "names_generation", "read_only"]

  var stock: [String]
  var orders: [String]
  var products: [String]
  var info: [String: String]
  /// Each fuzzing account's newest diary entries, read logged in as it: a diary is its owner's alone.
  var diaries: [String: [String]]

  init(_ client: LineClient) throws {
    stock = try client.request("STOCK").lines
    orders = try client.request("LIST orders").lines
    products = try client.request("LIST products").lines
    let row = try client.request("INFO").rows.first
    info = Dictionary(uniqueKeysWithValues: Self.counters.map { ($0, row?[$0] ?? "missing") })
    diaries = [:]
    for account in FuzzVocabulary.accounts {
      try client.logInExisting(account.name)
      diaries[account.name] = try client.request("LIST diary size=100").lines
    }
  }

  /// Diary entries of all the fuzzing accounts together.
  var diaryEntries: Int {
    diaries.values.reduce(0) { total, lines in
      total + (lines.last?.firstMatch(of: /total=(\d+)/).flatMap { Int($0.1) } ?? 0)
    }
  }

  /// The first difference, for a failure message short enough to read.
  func difference(from other: ShopSnapshot) -> String? {
    if info != other.info { return "INFO \(info) became \(other.info)" }
    let ownDiaries = diaries.keys.sorted().map { name in
      ("LIST diary of \(name)", diaries[name] ?? [], other.diaries[name] ?? [])
    }
    let listings = [
      ("STOCK", stock, other.stock), ("LIST orders", orders, other.orders),
      ("LIST products", products, other.products),
    ]
    for (name, mine, theirs) in listings + ownDiaries where mine != theirs {
      let index = (0..<min(mine.count, theirs.count)).first { mine[$0] != theirs[$0] } ?? min(mine.count, theirs.count)
      let before = index < mine.count ? mine[index] : "(no line)"
      let after = index < theirs.count ? theirs[index] : "(no line)"
      return "\(name) line \(index + 1) was \(before.prefix(200)) and is \(after.prefix(200))"
    }
    return nil
  }

  var description: String {
    "\(stock.count - 1) stocked items, \(info["orders"] ?? "?") orders, \(info["products"] ?? "?") products, \(diaryEntries) diary entries"
  }
}

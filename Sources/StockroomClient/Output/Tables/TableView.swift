import StockroomProtocol

/// Which columns a person needs for each kind of row, and what is left out on purpose.
enum TableView {
  /// STOCK and ADD rows: a level without a name.
  static func isLevelOnly(_ row: Row) -> Bool {
    guard let kind = RowKind(row) else { return false }
    return (kind.isStocked || kind == .juice) && row["name"] == nil
      && (row["stock"] != nil || row["can_make"] != nil)
  }

  static func columns(
    for kind: RowKind?, levelOnly: Bool, rows: [Row], dates: DateStyle, names: CatalogNames = CatalogNames()
  ) -> [HumanColumn] {
    if levelOnly {
      // STOCK's rows carry ids only; the names come from NAMES, when the session has them.
      // Last, so the level stays next to the id it is read with.
      let name = HumanColumn("name", dropRank: 2) { row in row.id.flatMap { names.displayName(of: $0) } }
      return [
        .id(), .field("kind"), .stock, .stockBar(dropRank: 1), .field("change", alignment: .right),
        .field("can_make", alignment: .right), name,
      ]
    }
    switch kind {
    case .category?: return [.id("category"), .field("count", alignment: .right)]
    case .fruit?:
      return [.id(), .field("name"), .field("aliases", dropRank: 2), .stock, .stockBar(dropRank: 1)]
    case .juice?:
      return [
        .id(), .field("name"), .field("aliases", dropRank: 1), .field("recipe", wraps: true),
        .field("can_make", alignment: .right),
      ]
    case .section?:
      return [.id(), .field("name"), .field("aliases", dropRank: 1), .field("count", "dishes", alignment: .right)]
    case .dish?:
      return [.id(), .field("name"), .price, .stock, .stockBar(dropRank: 1)]
    case .product?:
      return [.id(), .field("name"), .price, .stock, .stockBar(dropRank: 1), .field("seller", dropRank: 2)]
    case .exhibit?:
      return [.id(), .field("name"), .field("aliases", dropRank: 1), .field("summary", wraps: true)]
    case .diary?:
      return [
        .id(), .field("title", wraps: true), .field("preview", wraps: true, dropRank: 1),
        .date("created", dates: dates, dropRank: 2), .date("updated", dates: dates),
      ]
    case .order?:
      return [
        .id("order"), .date("placed", dates: dates), .field("user", dropRank: 1), .field("items", wraps: true),
        HumanColumn("total", alignment: .right) { MoneyText.totals(in: $0) },
      ]
    case .ingredient?:
      return [.id("fruit"), .field("quantity", "needs", alignment: .right), .stock, .field("enough")]
    case .shortage?:
      return [
        .id("item"), .field("needed", alignment: .right), .field("available", alignment: .right),
        .field("missing", alignment: .right),
      ]
    case .ledger?:
      return [
        .id("#"), .date("at", dates: dates), .field("change", alignment: .right), .field("cause"),
        .field("order", alignment: .right), .field("user"),
      ]
    case .taken?: return [.id("item"), .field("quantity", alignment: .right), .stock]
    case .expo?, .user?, .group?, nil: return generic(rows, dates: dates)
    }
  }

  /// Fields of these kinds that tables never show, and where to read them.
  static func omitted(for kind: RowKind?, rows: [Row]) -> String? {
    switch kind {
    case .dish?, .product?:
      guard rows.contains(where: { !($0["description"] ?? "").isEmpty }) else { return nil }
      return "descriptions left out: SHOW <id> shows one"
    default: return nil
    }
  }

  /// Every field, once: the price fields as one price, and `x` shown as its `x_text` twin.
  private static func generic(_ rows: [Row], dates: DateStyle) -> [HumanColumn] {
    var keys: [String] = []
    for row in rows {
      for field in row.fields where !keys.contains(field.key) { keys.append(field.key) }
    }
    var columns: [HumanColumn] = rows.contains { $0.id != nil } ? [.id()] : []
    var pricePlaced = false
    for key in keys {
      if PriceText.keys.contains(key) {
        if !pricePlaced { columns.append(.price) }
        pricePlaced = true
        continue
      }
      if key.hasSuffix("_text"), keys.contains(String(key.dropLast("_text".count))) { continue }
      let twin = key + "_text"
      let shown = keys.contains(twin) ? twin : key
      let numeric = rows.allSatisfy { row in row[shown].map { Int($0) != nil } ?? true }
      columns.append(
        HumanColumn(key.isEmpty ? "-" : key, alignment: numeric ? .right : .left) { row in
          row[shown].map { dates.short(iso: $0) ?? $0 }
        })
    }
    return columns
  }
}

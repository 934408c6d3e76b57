import StockroomProtocol

/// One column of a table for people: its heading, how its cells are laid out, whether it may
/// give way when the terminal is too narrow, and where its text comes from.
struct HumanColumn {
  var header: String
  var alignment: TableLayout.Alignment = .left
  /// Broken at spaces onto more lines when the table must be narrower.
  var wraps = false
  /// Columns with a rank are left out, lowest first, when the table cannot fit otherwise;
  /// those without one are what the view is for and always stay.
  var dropRank: Int? = nil
  /// How this column is named when it was left out, e.g. `stock bars`.
  var leftOutName: String? = nil
  /// A stock bar, coloured by how full the shelf is.
  var bar: ((Row) -> StockBar?)? = nil
  var value: (Row) -> String?

  init(
    _ header: String, alignment: TableLayout.Alignment = .left, wraps: Bool = false, dropRank: Int? = nil,
    value: @escaping (Row) -> String?
  ) {
    self.header = header
    self.alignment = alignment
    self.wraps = wraps
    self.dropRank = dropRank
    self.value = value
  }

  /// The row's own id.
  static func id(_ header: String = "id") -> HumanColumn { HumanColumn(header) { $0.id } }

  /// A field as sent, under a heading of its own.
  static func field(
    _ key: String, _ header: String? = nil, alignment: TableLayout.Alignment = .left, wraps: Bool = false,
    dropRank: Int? = nil
  ) -> HumanColumn {
    HumanColumn(
      header ?? key.replacingOccurrences(of: "_", with: " "), alignment: alignment, wraps: wraps,
      dropRank: dropRank
    ) { $0[key] }
  }

  /// The stock level, right-aligned.
  static var stock: HumanColumn { field("stock", alignment: .right) }

  /// The bar after a stock level, drawn when the row says what the item started with.
  static func stockBar(dropRank: Int) -> HumanColumn {
    var column = HumanColumn("", dropRank: dropRank) { row in StockBar.of(row)?.text }
    column.leftOutName = "stock bars"
    column.bar = StockBar.of
    return column
  }

  /// A price with its discount, wrapped before the discount when the table is narrow.
  static var price: HumanColumn { HumanColumn("price", wraps: true) { PriceText.of($0) } }

  /// A timestamp in the user's zone and language.
  static func date(_ key: String, dates: DateStyle, dropRank: Int? = nil) -> HumanColumn {
    HumanColumn(key, dropRank: dropRank) { row in row[key].map { dates.short(iso: $0) ?? $0 } }
  }
}

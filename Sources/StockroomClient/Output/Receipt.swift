import StockroomProtocol

/// An order's reply as a receipt: each line with its quantity, unit and line price, the total,
/// and the level each stocked item went down to.
struct Receipt {
  var reply: Reply
  var palette: Palette
  var limit: Int?
  var names = CatalogNames()

  /// An ORDER reply: order lines (`quantity=`) and the stock they took (`kind=taken`).
  static func matches(_ reply: Reply) -> Bool {
    reply.rows.contains { RowKind($0) == .taken }
  }

  func lines() -> [String] {
    let ordered = reply.rows.filter { $0["quantity"] != nil && RowKind($0) != .taken }
    let taken = reply.rows.filter { RowKind($0) == .taken }
    let status = reply.statusFields
    var out: [String] = []
    if let order = status["order"] { out.append(palette.header("Order \(order)")) }
    let quantityWidth = ordered.map { DisplayWidth.of($0["quantity"] ?? "1") }.max() ?? 1
    let cells: [[String]] = ordered.map { row in
      let currency = row["currency"] ?? ""
      let unit = row["unit_price"].map { "at " + (MoneyText.format($0, currency: currency) ?? $0) } ?? ""
      let line = row["subtotal"].map { MoneyText.format($0, currency: currency) ?? $0 } ?? ""
      let quantity = DisplayWidth.padLeft(row["quantity"] ?? "1", to: quantityWidth)
      return ["\(quantity) × \(ItemLabel.of(row.id ?? "", names: names))", unit, line]
    }
    let layout = TableLayout(headers: ["", "", ""], rows: cells, alignments: [.left, .right, .right])
    var widths = layout.columnWidths
    let total = MoneyText.totals(in: status)
    if let total { widths[2] = max(widths[2], DisplayWidth.of(total)) }
    let body = layout.lines(widths: widths).dropFirst().map { "  " + $0 }
    out += body
    let width = max(layout.totalWidth(widths), 20)
    if let total {
      out.append("  " + palette.dim(String(repeating: "─", count: width)))
      out.append("  " + palette.header("Total") + DisplayWidth.padLeft(total, to: width - "Total".count))
    }
    if !taken.isEmpty {
      let levels = taken.map { "\(ItemLabel.of($0.id ?? "", names: names)) \($0["stock"] ?? "?")" }
        .joined(separator: ", ")
      let text = "Stock left: " + levels
      let wrapped = limit.map { TextWrap.lines(text, width: max(20, $0 - 2)) } ?? [text]
      out += wrapped.enumerated().map { index, line in (index == 0 ? "" : "  ") + line }
    }
    return out
  }
}

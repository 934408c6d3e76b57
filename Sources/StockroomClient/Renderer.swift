import StockroomProtocol

/// Turns replies and events into the text a person, a script or `jq` reads.
public struct Renderer: Sendable {
  public var mode: OutputMode
  public var palette: Palette
  public var dates: DateStyle
  /// The widest a table cell may be before it is cut with `…`.
  public var maximumCellWidth = 40
  /// The terminal's width, read before each table; nil (or 0) means no limit, as for a file.
  public var terminalWidth: @Sendable () -> Int? = { nil }

  /// Columns given up first when a table is wider than the terminal: the ones a person can get
  /// from SHOW when they want them. Ids, kinds, names, stock and prices people pay stay.
  static let dropOrder = [
    "description", "summary", "regular_price_text", "aliases", "price", "currency", "sale_price", "discount",
    "final_price", "unit_price", "section", "initial", "restocked", "corrected", "taken", "created", "updated",
    "preview", "recipe", "seller", "used_in",
  ]
  public static let barWidth = 10

  public init(mode: OutputMode, palette: Palette, dates: DateStyle = .english) {
    self.mode = mode
    self.palette = palette
    self.dates = dates
  }

  /// The reply as lines ending in LF.
  public func render(_ reply: Reply) -> String {
    switch mode {
    case .raw: return reply.lines.map { $0 + "\n" }.joined()
    case .json: return JSONReply.encode(reply) + "\n"
    case .csv: return CSVWriter.render(reply)
    case .human: return human(reply)
    }
  }

  public func render(event row: Row, line: String) -> String {
    switch mode {
    case .raw: return line + "\n"
    case .json: return JSONReply.encode(event: row) + "\n"
    case .csv: return CSVWriter.render(event: row)
    case .human: return humanEvent(row) + "\n"
    }
  }

  /// The status line alone, as a person reads it.
  public func status(_ reply: Reply) -> String {
    switch reply.status {
    case .ok(let text): return palette.ok(text.isEmpty ? "OK" : "OK " + text)
    case .error(let code, let text):
      let name = code?.rawValue ?? "ERR"
      return palette.error("ERR \(code == nil ? "" : name + " ")\(text)")
    }
  }

  private func human(_ reply: Reply) -> String {
    var lines: [String] = []
    if reply.rows.count == 1, reply.rows[0].fields.count >= 6 {
      lines += card(reply.rows[0])
    } else if !reply.rows.isEmpty {
      lines += table(reply.rows)
    }
    lines.append(status(reply))
    return lines.map { $0 + "\n" }.joined()
  }

  // One row with many fields (SHOW, INFO) reads better as a list of key and value.
  private func card(_ row: Row) -> [String] {
    var lines: [String] = []
    if let id = row.id { lines.append(palette.header(id)) }
    let keyWidth = row.fields.map { DisplayWidth.of($0.key) }.max() ?? 0
    for field in row.fields {
      var value = display(field.value)
      if isStockKey(field.key), let level = Int(field.value) {
        let scale = max(level, Int(row["initial"] ?? "") ?? 0, 1)
        value += " " + bar(level, of: scale)
      }
      lines.append("  " + palette.dim(DisplayWidth.padRight(field.key, to: keyWidth)) + "  " + value)
    }
    return lines
  }

  private func table(_ rows: [Row]) -> [String] {
    var keys: [String] = []
    for row in rows {
      for field in row.fields where !keys.contains(field.key) { keys.append(field.key) }
    }
    let hasID = rows.contains { $0.id != nil }
    if let limit = terminalWidth(), limit > 0 {
      for key in Self.dropOrder where keys.contains(key) && width(of: rows, keys: keys, hasID: hasID) > limit {
        keys.removeAll { $0 == key }
      }
      // Still too wide: give up columns from the right, but never the stock or what names a row.
      while width(of: rows, keys: keys, hasID: hasID) > limit,
        let last = keys.lastIndex(where: { !isStockKey($0) && $0 != "kind" && $0 != "name" })
      {
        keys.remove(at: last)
      }
    }
    let headers = (hasID ? ["id"] : []) + keys.map { $0.isEmpty ? "-" : $0 }
    var cells: [[String]] = rows.map { row in
      (hasID ? [row.id ?? ""] : []) + keys.map { key in display(row[key] ?? "") }
    }
    var alignments: [TableLayout.Alignment] = headers.indices.map { column in
      let values = cells.map { $0[column] }.filter { !$0.isEmpty }
      let numeric = !values.isEmpty && values.allSatisfy { Int($0) != nil }
      return numeric && column > 0 ? .right : .left
    }
    // A bar after each stock level, scaled to the column's largest.
    var barColumns: [Int] = []
    for (offset, key) in keys.enumerated().reversed() where isStockKey(key) {
      let column = offset + (hasID ? 1 : 0)
      let levels = cells.map { Int($0[column]) }
      guard levels.contains(where: { $0 != nil }) else { continue }
      let scale = max(levels.compactMap { $0 }.max() ?? 1, 1)
      for index in cells.indices {
        let text = levels[index].map { bar($0, of: scale, coloured: false) } ?? ""
        cells[index].insert(text, at: column + 1)
      }
      alignments.insert(.left, at: column + 1)
      barColumns.append(column + 1)
    }
    var allHeaders = headers
    for column in barColumns.sorted() { allHeaders.insert("", at: column) }
    cells = cells.map { row in row.map { DisplayWidth.truncate($0, to: maximumCellWidth) } }
    let layout = TableLayout(headers: allHeaders, rows: cells, alignments: alignments)
    return layout.lines(header: palette.header) { column, _, padded in
      guard barColumns.contains(column) else { return padded }
      let filled = padded.filter { $0 == "█" }.count
      return palette.bar(padded, fraction: Double(filled) / Double(Self.barWidth))
    }
  }

  /// How wide `table` would draw these columns, bars included.
  private func width(of rows: [Row], keys: [String], hasID: Bool) -> Int {
    var widths: [Int] = []
    if hasID { widths.append(rows.map { DisplayWidth.of($0.id ?? "") }.max() ?? 0) }
    for key in keys {
      let widest = rows.map { min(maximumCellWidth, DisplayWidth.of(display($0[key] ?? ""))) }.max() ?? 0
      widths.append(max(DisplayWidth.of(key), widest))
      if isStockKey(key) { widths.append(Self.barWidth) }
    }
    return widths.reduce(0, +) + 2 * max(0, widths.count - 1)
  }

  private func isStockKey(_ key: String) -> Bool { key == "stock" || key == "level" }

  private func bar(_ level: Int, of scale: Int, coloured: Bool = true) -> String {
    let filled = level <= 0 ? 0 : max(1, min(Self.barWidth, level * Self.barWidth / scale))
    let text = String(repeating: "█", count: filled) + String(repeating: "░", count: Self.barWidth - filled)
    return coloured ? palette.bar(text, fraction: Double(filled) / Double(Self.barWidth)) : text
  }

  /// A value as a person reads it: timestamps in the user's language.
  public func display(_ value: String) -> String {
    if value.count >= 20, value.hasSuffix("Z"), let date = dates.format(iso: value) {
      return date
    }
    return value
  }

  private func humanEvent(_ row: Row) -> String {
    let kind = row.id ?? "event"
    if kind == "closing", row["reason"] == "idle" {
      let after = row["idle_seconds"].map { " after \($0) s" } ?? ""
      return palette.event("! the server closed this idle connection\(after); the next command reconnects")
    }
    guard kind == "stock", let item = row["item"], let level = row["level"] else {
      let rest = row.fields.map { $0.key.isEmpty ? $0.value : "\($0.key)=\($0.value)" }
      return palette.event("! " + kind) + (rest.isEmpty ? "" : " " + rest.joined(separator: " "))
    }
    var detail: [String] = []
    if let change = row["change"] { detail.append(change) }
    if let cause = row["cause"] {
      detail.append(row["order"].map { "\(cause) \($0)" } ?? cause)
    }
    if let user = row["user"] { detail.append("by " + user) }
    let known: Set<String> = ["item", "name", "level", "change", "cause", "order", "user"]
    for field in row.fields where !known.contains(field.key) {
      detail.append("\(field.key)=\(field.value)")
    }
    let tail = detail.isEmpty ? "" : " (" + detail.joined(separator: ", ") + ")"
    // The display name, when it says more than the id: `p8 (떡)`, but `banana` for Banana.
    var shown = item
    if let name = row["name"], name.lowercased() != item.lowercased() { shown += " (\(name))" }
    return palette.event("! stock \(shown) → \(level)") + tail
  }
}

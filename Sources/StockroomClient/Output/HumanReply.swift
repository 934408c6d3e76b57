import StockroomProtocol

/// A whole reply for people: receipts for orders, a card for one thing shown in full, a ledger
/// under its totals for STOCKTAKE, and otherwise tables of the columns each kind needs, then
/// the status line without protocol leftovers.
struct HumanReply {
  var reply: Reply
  var palette: Palette
  var dates: DateStyle
  var limit: Int?
  var names = CatalogNames()
  var advice = AdviceSpelling.commandLine

  func lines() -> [String] {
    let rows = reply.rows
    var out: [String] = []
    if rows.isEmpty {
    } else if Receipt.matches(reply) {
      out += Receipt(reply: reply, palette: palette, limit: limit, names: names).lines()
    } else if rows[0]["balances"] != nil {
      out += stocktake(rows[0])
      if rows.count > 1 { out += tables(Array(rows.dropFirst())) }
    } else if rows.count == 1, isCard(rows[0]) {
      out += Card(row: rows[0], palette: palette, dates: dates, limit: limit).lines()
    } else if rows.count > 1, let first = RowKind(rows[0]), first == .juice, RowKind(rows[1]) == .ingredient {
      out += Card(row: rows[0], palette: palette, dates: dates, limit: limit).lines()
      out += tables(Array(rows.dropFirst()))
    } else {
      out += tables(rows)
    }
    // The status line too is broken at spaces within the width: an ERR line holds the
    // user's own words, which the terminal would otherwise cut anywhere.
    out += TextWrap.lines(status(), width: limit ?? 0, hanging: 2)
    return out
  }

  /// One row with many fields, or a long text of its own, reads better as a card; a page of a
  /// list stays a table even when it holds one row.
  private func isCard(_ row: Row) -> Bool {
    guard reply.statusFields["total"] == nil else { return false }
    return row.fields.count >= 6 || row["description"] != nil || row["body"] != nil || RowKind(row) == .expo
  }

  /// STOCKTAKE's first row: the level against the start, and how the ledger adds up to it.
  private func stocktake(_ row: Row) -> [String] {
    var out: [String] = []
    var heading = palette.header(row.id ?? "") + (row["kind"].map { " (\($0))" } ?? "")
    heading += "  stock \(row["stock"] ?? "?")"
    if let bar = StockBar.of(row) { heading += "  " + palette.bar(bar.text, fraction: bar.fraction) }
    out.append(heading)
    let terms = [("initial", ""), ("restocked", "+ "), ("corrected", "− "), ("taken", "− ")]
    let sum = terms.map { key, sign in "\(sign)\(key) \(row[key] ?? "?")" }.joined(separator: " ")
    let balances = row["balances"] == "yes" ? "balances" : "does NOT balance"
    let text = sum + " = \(row["stock"] ?? "?") (\(balances))"
    out += TextWrap.lines(text, width: max(20, (limit ?? Int.max / 2) - 4)).enumerated().map { index, line in
      (index == 0 ? "  " : "    ") + line
    }
    return out
  }

  /// Runs of rows of one kind, each a table; a dish section's row becomes a heading over its
  /// dishes instead.
  private func tables(_ rows: [Row]) -> [String] {
    let hasDishes = rows.contains { RowKind($0) == .dish }
    var groups: [(key: TableGroup, rows: [Row], headings: [Int: String])] = []
    var pending: [String] = []
    for row in rows {
      let kind = RowKind(row)
      if hasDishes && kind == .section {
        pending.append(sectionHeading(row))
        continue
      }
      let key = TableGroup(row)
      if groups.last?.key != key { groups.append((key, [], [:])) }
      let last = groups.count - 1
      if !pending.isEmpty {
        groups[last].headings[groups[last].rows.count] = pending.joined(separator: "\n")
        pending = []
      }
      groups[last].rows.append(row)
    }
    var out: [String] = []
    for group in groups {
      let columns = TableView.columns(
        for: group.key.kind, levelOnly: group.key.levelOnly, rows: group.rows, dates: dates, names: names)
      if !out.isEmpty { out.append("") }
      out += HumanTable(columns: columns, rows: group.rows, headings: group.headings, advice: advice)
        .lines(limit: limit, palette: palette)
      if let note = TableView.omitted(for: group.key.kind, rows: group.rows) { out.append(palette.dim(note)) }
    }
    return out
  }

  private func sectionHeading(_ row: Row) -> String {
    let name = row["name"] ?? row.id ?? ""
    let other = [row.id, row["aliases"]].compactMap { $0 }.filter { !$0.isEmpty && $0 != name }
    let count = row["count"].flatMap { Int($0) }.map { RowKind.dish.counted($0) }
    let detail = (other + [count].compactMap { $0 }).joined(separator: ", ")
    return palette.header(name) + (detail.isEmpty ? "" : palette.dim(" (\(detail))"))
  }

  /// The status line, in words where the protocol's are for programs.
  func status() -> String {
    switch reply.status {
    case .error(let code, let text):
      return palette.error("ERR \(code == nil ? "" : code!.rawValue + " ")\(text)")
    case .ok(let text):
      return palette.ok(text.isEmpty ? "OK" : "OK " + okText(text))
    }
  }

  private func okText(_ text: String) -> String {
    let fields = reply.statusFields
    // What a page counts: the dishes under their sections, the movements under a ledger's totals.
    let kinds = reply.rows.compactMap { RowKind($0) }
    let kind = kinds.last { $0 != .section } ?? kinds.last
    if let total = fields["total"].flatMap({ Int($0) }), let page = fields["page"].flatMap({ Int($0) }),
      let pages = fields["pages"].flatMap({ Int($0) })
    {
      if total == 0 { return "none" }
      let counted = kind?.counted(total) ?? "\(total) in all"
      if pages <= 1 && page == 1 { return counted }
      if page >= pages { return "\(counted), page \(page) of \(pages)" }
      return "\(counted), page \(page) of \(pages); \(advice.nextPage(after: page)) for the next"
    }
    if let match = text.wholeMatch(of: /(\d+) items/), let count = Int(match.output.1) {
      return RowKind.taken.counted(count)
    }
    if fields["order"] != nil, let order = fields["order"] { return "order=\(order)" }
    if kind == .expo, let expo = reply.rows.first {
      return "\(expo["exhibits"] ?? "the") exhibits: LIST exhibits"
    }
    return text
  }
}

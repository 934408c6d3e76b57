import StockroomProtocol

/// Rows laid out in the columns a view chose, made to fit the terminal: wrapping columns are
/// narrowed first, then the columns that may give way are left out, and a note says which.
struct HumanTable {
  var columns: [HumanColumn]
  var rows: [Row]
  /// Lines put before a row, such as a dish section's name.
  var headings: [Int: String] = [:]
  var advice = AdviceSpelling.commandLine

  /// A wrapped column keeps at least this many cells while other columns can still give way.
  static let comfortableWidth = 30

  func lines(limit: Int?, palette: Palette) -> [String] {
    var kept = columns.filter { column in rows.contains { column.value($0) != nil } }
    var leftOut: [String] = []
    while true {
      let layout = self.layout(kept)
      if let widths = layout.widths(fitting: limit, floor: Self.comfortableWidth) {
        return draw(layout, kept, widths: widths, palette: palette) + note(leftOut, limit: limit, palette: palette)
      }
      let candidates = kept.indices.filter { kept[$0].dropRank != nil }
      guard let victim = candidates.min(by: { kept[$0].dropRank! < kept[$1].dropRank! }) else {
        // Nothing left to give up: every text column may wrap at spaces now, and past that a
        // word too long for its column is broken, but the terminal never breaks a line.
        var squeezed = layout
        squeezed.wraps = kept.indices.map { layout.wraps[$0] || (kept[$0].alignment == .left && kept[$0].bar == nil) }
        let widths = squeezed.widths(fitting: limit) ?? squeezed.squeezedWidths(fitting: limit)
        return draw(squeezed, kept, widths: widths, palette: palette)
          + note(leftOut, limit: limit, palette: palette)
      }
      leftOut.append(kept[victim].leftOutName ?? kept[victim].header)
      kept.remove(at: victim)
    }
  }

  private func layout(_ kept: [HumanColumn]) -> TableLayout {
    TableLayout(
      headers: kept.map(\.header),
      rows: rows.map { row in kept.map { $0.value(row) ?? "" } },
      alignments: kept.map(\.alignment),
      wraps: kept.map(\.wraps))
  }

  private func draw(_ layout: TableLayout, _ kept: [HumanColumn], widths: [Int], palette: Palette) -> [String] {
    let (head, body) = layout.rowLines(widths: widths, header: palette.header) { column, row, padded in
      guard let bar = kept[column].bar?(rows[row]) else { return padded }
      return palette.bar(padded, fraction: bar.fraction)
    }
    var out = [head]
    for (index, lines) in body.enumerated() {
      if let heading = headings[index] { out.append(heading) }
      out += lines
    }
    return out
  }

  private func note(_ leftOut: [String], limit: Int?, palette: Palette) -> [String] {
    guard !leftOut.isEmpty, let limit else { return [] }
    let names = leftOut.count == 1 ? leftOut[0] : leftOut.dropLast().joined(separator: ", ") + " and " + leftOut.last!
    let text =
      "left out to fit \(limit) columns: \(names); \(advice.wide) shows " + (leftOut.count == 1 ? "it" : "them")
    return TextWrap.lines(text, width: limit).map(palette.dim)
  }
}

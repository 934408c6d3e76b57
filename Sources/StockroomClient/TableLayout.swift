/// Columns padded to the widest cell by display width, so wide characters line up.
public struct TableLayout: Sendable {
  public enum Alignment: Sendable {
    case left
    case right
  }

  public var headers: [String]
  public var rows: [[String]]
  public var alignments: [Alignment]
  public var gap = 2

  public init(headers: [String], rows: [[String]], alignments: [Alignment]? = nil) {
    self.headers = headers
    self.rows = rows
    self.alignments = alignments ?? Array(repeating: .left, count: headers.count)
  }

  public var columnWidths: [Int] {
    headers.indices.map { column in
      rows.reduce(DisplayWidth.of(headers[column])) { widest, row in
        column < row.count ? max(widest, DisplayWidth.of(row[column])) : widest
      }
    }
  }

  /// The header line and one line per row, without trailing spaces; `style` colours a cell
  /// after it has been padded, so escape codes never count toward a width.
  public func lines(
    header: (String) -> String = { $0 },
    style: (_ column: Int, _ row: Int, _ padded: String) -> String = { $2 }
  ) -> [String] {
    let widths = columnWidths
    func line(_ cells: [String], styled: (Int, String) -> String) -> String {
      var parts: [String] = []
      for (column, width) in widths.enumerated() {
        let cell = column < cells.count ? cells[column] : ""
        let isLast = column == widths.count - 1
        let padded: String
        switch alignments[column] {
        case .left: padded = isLast ? cell : DisplayWidth.padRight(cell, to: width)
        case .right: padded = DisplayWidth.padLeft(cell, to: width)
        }
        parts.append(styled(column, padded))
      }
      var text = parts.joined(separator: String(repeating: " ", count: gap))
      while text.last == " " { text.removeLast() }
      return text
    }
    var out = [line(headers) { _, padded in header(padded) }]
    for (index, row) in rows.enumerated() {
      out.append(line(row) { column, padded in style(column, index, padded) })
    }
    return out
  }
}

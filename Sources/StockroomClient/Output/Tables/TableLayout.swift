/// Columns padded to the widest cell by display width, so wide characters line up; columns
/// that may wrap are broken at spaces to fit the widths they are given.
public struct TableLayout: Sendable {
  public enum Alignment: Sendable {
    case left
    case right
  }

  public var headers: [String]
  public var rows: [[String]]
  public var alignments: [Alignment]
  /// Columns whose text may be wrapped onto more lines when the table must be narrower.
  public var wraps: [Bool]
  public var gap = 2
  /// How far a wrapped cell's further lines are indented.
  static let hanging = 2

  public init(headers: [String], rows: [[String]], alignments: [Alignment]? = nil, wraps: [Bool]? = nil) {
    self.headers = headers
    self.rows = rows
    self.alignments = alignments ?? Array(repeating: .left, count: headers.count)
    self.wraps = wraps ?? Array(repeating: false, count: headers.count)
  }

  /// Each column as wide as its widest cell.
  public var columnWidths: [Int] {
    headers.indices.map { column in
      rows.reduce(DisplayWidth.of(headers[column])) { widest, row in
        column < row.count ? max(widest, DisplayWidth.of(row[column])) : widest
      }
    }
  }

  /// How narrow each column can get: a wrapping one down to its longest word.
  public var minimumWidths: [Int] {
    headers.indices.map { column in
      guard wraps[column] else { return columnWidths[column] }
      return rows.reduce(DisplayWidth.of(headers[column])) { widest, row in
        column < row.count ? max(widest, TextWrap.longestWord(row[column]) + Self.hanging) : widest
      }
    }
  }

  /// The width of a line when the columns have these widths.
  public func totalWidth(_ widths: [Int]) -> Int {
    widths.reduce(0, +) + gap * max(0, widths.count - 1)
  }

  /// Column widths for a table at most `limit` cells wide, narrowing the wrapping columns
  /// (the widest first) no further than their longest word, or than `floor` cells when given;
  /// nil when even that is too wide.
  public func widths(fitting limit: Int?, floor: Int? = nil) -> [Int]? {
    var widths = columnWidths
    guard let limit else { return widths }
    var excess = totalWidth(widths) - limit
    var minimum = minimumWidths
    if let floor {
      for column in widths.indices where wraps[column] {
        minimum[column] = max(minimum[column], min(widths[column], floor))
      }
    }
    while excess > 0 {
      guard
        let column = widths.indices.filter({ wraps[$0] && widths[$0] > minimum[$0] })
          .max(by: { widths[$0] < widths[$1] })
      else { return nil }
      widths[column] -= 1
      excess -= 1
    }
    return widths
  }

  /// Widths for a table that does not fit even with its wrapping columns down to their
  /// longest word: those columns narrowed further, widest first, to no less than their
  /// heading (and four cells), so their words break rather than the line.
  public func squeezedWidths(fitting limit: Int?) -> [Int] {
    var widths = minimumWidths
    guard let limit else { return columnWidths }
    let floor = headers.map { max(4, DisplayWidth.of($0)) }
    var excess = totalWidth(widths) - limit
    while excess > 0 {
      guard
        let column = widths.indices.filter({ wraps[$0] && widths[$0] > floor[$0] })
          .max(by: { widths[$0] < widths[$1] })
      else { break }
      widths[column] -= 1
      excess -= 1
    }
    return widths
  }

  /// The header line and one line per row, without trailing spaces; `style` colours a cell
  /// after it has been padded, so escape codes never count toward a width.
  public func lines(
    widths given: [Int]? = nil,
    header: (String) -> String = { $0 },
    style: (_ column: Int, _ row: Int, _ padded: String) -> String = { $2 }
  ) -> [String] {
    let (head, body) = rowLines(widths: given, header: header, style: style)
    return [head] + body.flatMap { $0 }
  }

  /// The header line, and the lines of each row apart, for callers that put headings between
  /// rows. A wrapped cell's further lines stay in its column.
  public func rowLines(
    widths given: [Int]? = nil,
    header: (String) -> String = { $0 },
    style: (_ column: Int, _ row: Int, _ padded: String) -> String = { $2 }
  ) -> (header: String, rows: [[String]]) {
    let widths = given ?? columnWidths
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
    let head = line(headers) { _, padded in header(padded) }
    var body: [[String]] = []
    for (index, row) in rows.enumerated() {
      let stacked: [[String]] = widths.indices.map { column in
        let cell = column < row.count ? row[column] : ""
        if wraps[column] { return TextWrap.lines(cell, width: widths[column], hanging: Self.hanging) }
        return [DisplayWidth.of(cell) > widths[column] ? DisplayWidth.truncate(cell, to: widths[column]) : cell]
      }
      let height = stacked.map(\.count).max() ?? 1
      var lines: [String] = []
      for offset in 0..<height {
        let cells = stacked.map { offset < $0.count ? $0[offset] : "" }
        lines.append(line(cells) { column, padded in offset == 0 ? style(column, index, padded) : padded })
      }
      body.append(lines)
    }
    return (head, body)
  }
}

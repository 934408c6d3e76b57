/// What the editor draws over the line libedit has drawn: the line again in colour, from the
/// prompt's end (see `LineHighlighter`), and a history suggestion, dimmed, after the cursor;
/// the cursor put back where libedit left it.
///
/// libedit keeps a copy of what it believes is on the screen and redraws by differences.
/// Colours change no character, so its copy stays right (its next redraw may write a cell
/// plain, and the next overlay colours it again); the suggestion adds characters, so the
/// editor erases it (to the end of the row, which libedit believes blank) before a key
/// reaches libedit.
struct LineOverlay {
  /// The terminal's width in cells.
  var columns: Int
  var prompt: String

  /// Where text placed after `start` ends, libedit's way: a character that would cross the
  /// row's end starts the next row, and a full row moves on to the next at once.
  func position(after text: String, from start: (row: Int, column: Int)) -> (row: Int, column: Int) {
    var position = start
    for scalar in text.unicodeScalars {
      let width = DisplayWidth.of(scalar)
      if position.column + width > columns { position = (position.row + 1, 0) }
      position.column += width
      if position.column >= columns { position = (position.row + 1, 0) }
    }
    return position
  }

  /// The bytes that draw `spans`, the whole line, over libedit's drawing of it and put the
  /// cursor back after `beforeCursor`, with moves relative to the cursor so that where the
  /// line stands on the screen does not matter. Empty for a line with a control character,
  /// which libedit draws as `^X` in cells this does not count.
  func recoloured(_ spans: [LineSpan], beforeCursor: String) -> String {
    let line = spans.map(\.text).joined()
    guard !Self.hasControl(line) else { return "" }
    let start = position(after: prompt, from: (0, 0))
    let cursor = position(after: beforeCursor, from: start)
    var out = "\r" + Self.vertical(start.row - cursor.row) + Self.right(start.column)
    for span in spans {
      guard let style = span.style else {
        out += span.text
        continue
      }
      out += "\u{1B}[\(style.rawValue)m" + span.text + "\u{1B}[0m"
    }
    // A line that ends exactly at the margin leaves the terminal on that row until something
    // more is written, where libedit counts the next row.
    let end = position(after: line, from: start)
    let row = !line.isEmpty && end.column == 0 ? end.row - 1 : end.row
    return out + "\r" + Self.vertical(cursor.row - row) + Self.right(cursor.column)
  }

  private static func hasControl(_ text: String) -> Bool {
    text.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) }
  }

  /// Up (negative) or down so many rows; nothing for none.
  private static func vertical(_ rows: Int) -> String {
    rows < 0 ? "\u{1B}[\(-rows)A" : rows > 0 ? "\u{1B}[\(rows)B" : ""
  }

  private static func right(_ columns: Int) -> String {
    columns > 0 ? "\u{1B}[\(columns)C" : ""
  }

  /// The bytes that draw `suggestion` after a cursor standing at the end of `line`: on the
  /// cursor's row only, cut with `…` to leave the last two cells (where libedit keeps its right
  /// prompt) alone. Empty when there is no room.
  func suggestion(_ suggestion: String, after line: String) -> String {
    guard !Self.hasControl(line) else { return "" }
    let cursor = position(after: line, from: position(after: prompt, from: (0, 0)))
    let room = columns - cursor.column - 2
    guard room >= 2 else { return "" }
    // A control character would move the cursor rather than take a cell.
    var printable = String.UnicodeScalarView()
    printable.append(
      contentsOf: suggestion.unicodeScalars.filter { $0.value >= 0x20 && !(0x7F..<0xA0).contains($0.value) })
    let shown = DisplayWidth.truncate(String(printable), to: room)
    let width = DisplayWidth.of(shown)
    guard width > 0 else { return "" }
    return "\u{1B}[2m" + shown + "\u{1B}[0m\u{1B}[\(width)D"
  }
}

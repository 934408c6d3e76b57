/// What the editor draws over the line libedit has drawn: a history suggestion, dimmed, after
/// the cursor, with the cursor put back where libedit left it.
///
/// libedit keeps a copy of what it believes is on the screen and redraws by differences, so
/// anything drawn here must be gone again before libedit draws next: the editor erases the
/// suggestion (to the end of the row, which libedit believes blank) before a key reaches it.
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

  /// The bytes that draw `suggestion` after a cursor standing at the end of `line`: on the
  /// cursor's row only, cut with `…` to leave the last two cells (where libedit keeps its right
  /// prompt) alone. Empty when there is no room.
  func suggestion(_ suggestion: String, after line: String) -> String {
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

import CLibedit
import CStockroomShims

/// Fish-style suggestions from history, the line's colours drawn over libedit's, and Up and
/// Down's walk through the lines starting with what was typed.
extension LineEditor {
  /// History, oldest first, as last read.
  private var historyLines: [String] {
    if let historyCache { return historyCache }
    let lines = entries
    historyCache = lines
    return lines
  }

  /// What to draw dimmed after the cursor: the rest of the newest history line starting with
  /// the line. Only with colour, since without it nothing tells a suggestion from typed text
  /// (and what is not shown is not taken); only with the cursor at the line's end; never
  /// during Ctrl-R, whose search line libedit keeps in the buffer after a newline, nor on a
  /// line Up or Down brought back.
  func suggestion() -> String? {
    guard palette.isEnabled, let info = el_line(editLine)?.pointee, let cursor = info.cursor,
      let last = info.lastchar, cursor == last
    else { return nil }
    let line = currentLine()
    // A line Up brought back is a history line already; a second one after it would be noise.
    if let search, search.shown == line, line != search.typed { return nil }
    return Autosuggestion.rest(of: line, history: historyLines)
  }

  /// After libedit has drawn the line: the line in colour and the suggestion, once per
  /// redraw. Not during Ctrl-R, whose search line libedit keeps in the buffer.
  func drawOverlay(suggesting: Bool = true) {
    guard !overlayDrawn else { return }
    overlayDrawn = true
    let line = currentLine()
    guard !line.contains("\n") else { return }
    let overlay = LineOverlay(columns: max(Int(sr_el_columns(editLine)), 1), prompt: prompt)
    var bytes = ""
    if palette.isEnabled, let highlight {
      let spans = highlight(line)
      let styled = spans.contains { $0.style != nil }
      if styled || lineStyled { bytes += overlay.recoloured(spans, beforeCursor: lineBeforeCursor()) }
      lineStyled = styled
    }
    if suggesting, let rest = suggestion() {
      let drawn = overlay.suggestion(rest, after: line)
      bytes += drawn
      suggestionDrawn = !drawn.isEmpty
    }
    TerminalOutput.write(bytes)
  }

  /// Before a key reaches libedit: the suggestion erased, the cursor being at the line's end.
  func eraseOverlay() {
    overlayDrawn = false
    guard suggestionDrawn else { return }
    suggestionDrawn = false
    TerminalOutput.write("\u{1B}[K")
  }

  /// Right and Ctrl-F: at the end of the line they take the suggestion shown, as in fish;
  /// elsewhere they move one character, as libedit's own binding did.
  func forward() -> UInt8 {
    if let rest = suggestion() {
      _ = el_insertstr(editLine, rest)
      return UInt8(CC_REFRESH)
    }
    guard let info = el_line(editLine)?.pointee, let cursor = info.cursor, let last = info.lastchar,
      cursor < last
    else { return UInt8(CC_NORM) }
    _ = el_cursor(editLine, 1)
    return UInt8(CC_CURSOR)
  }

  /// End and Ctrl-E: the whole suggestion, else the end of the line.
  func toEnd() -> UInt8 {
    if let rest = suggestion() {
      _ = el_insertstr(editLine, rest)
      return UInt8(CC_REFRESH)
    }
    guard let info = el_line(editLine)?.pointee, let cursor = info.cursor, let last = info.lastchar else {
      return UInt8(CC_ERROR)
    }
    let left = text(from: cursor, count: last - cursor).unicodeScalars.count
    _ = el_cursor(editLine, Int32(left))
    return UInt8(CC_CURSOR)
  }

  /// Up and Down: the next older or newer history line starting with what was typed (every
  /// line when nothing was), the cursor at its end.
  func historyStep(older: Bool) -> UInt8 {
    let line = currentLine()
    if search?.shown != line { search = PrefixSearch(typed: line, history: historyLines) }
    guard var walk = search else { return UInt8(CC_ERROR) }
    let moved = older ? walk.older() : walk.newer()
    search = walk
    // At the oldest match Up beeps, as libedit's did at the oldest line; Down at the typed
    // line stays quiet.
    guard moved else { return UInt8(older ? CC_REFRESH_BEEP : CC_NORM) }
    replaceLine(with: walk.shown)
    return UInt8(CC_REFRESH)
  }

  private func replaceLine(with text: String) {
    guard let info = el_line(editLine)?.pointee, let buffer = info.buffer, let cursor = info.cursor,
      let last = info.lastchar
    else { return }
    _ = el_cursor(editLine, Int32(self.text(from: cursor, count: last - cursor).unicodeScalars.count))
    el_deletestr(editLine, Int32(self.text(from: buffer, count: last - buffer).unicodeScalars.count))
    _ = el_insertstr(editLine, text)
  }
}

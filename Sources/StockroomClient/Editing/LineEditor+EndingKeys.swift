import CLibedit
import CStockroomShims

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Keys that end a read: Enter, and Ctrl-C in emacs mode and in vi's command mode.
extension LineEditor {
  // Redraws the line without its hint, so scrollback does not keep it, and ends the read.
  func accept() -> UInt8 {
    guard let info = el_line(editLine)?.pointee, let cursor = info.cursor, let last = info.lastchar
    else { return UInt8(CC_ERROR) }
    _ = el_cursor(editLine, Int32(text(from: cursor, count: last - cursor).unicodeScalars.count))
    hintHidden = true
    printAbove("")
    // Scrollback keeps the line in its colours, without the suggestion.
    drawOverlay(suggesting: false)
    accepted = true
    return UInt8(CC_NEWLINE)
  }

  func interrupt() -> UInt8 {
    guard let info = el_line(editLine)?.pointee, let buffer = info.buffer,
      let cursor = info.cursor, let last = info.lastchar
    else { return UInt8(CC_ERROR) }
    let after = text(from: cursor, count: last - cursor).unicodeScalars.count
    let all = text(from: buffer, count: last - buffer).unicodeScalars.count
    _ = el_cursor(editLine, Int32(after))
    hintHidden = true
    printAbove("")
    // libedit believes the cursor is still on the line's last row, and its redisplay first
    // goes up that many rows to clear them; as many extra newlines keep it off the old line.
    let columns = max(Int(sr_el_columns(editLine)), 1)
    let rows = (DisplayWidth.of(prompt) + DisplayWidth.of(lineBeforeCursor())) / columns
    el_deletestr(editLine, Int32(all))
    hintHidden = false
    TerminalOutput.write("^C\n" + String(repeating: "\n", count: rows))
    return UInt8(CC_REDISPLAY)
  }

  /// In vi mode Ctrl-C in command mode (`bind -a`: the map emacs mode never uses) gives up the
  /// line and starts a new one, which libedit starts in insert mode: cleared in place, the
  /// line went on in command mode, so `STOCK` typed next was vi's `S` and `TOCK`, and Ctrl-D
  /// was no end of input.
  func bindViCommandMode() {
    _ = sr_el_add_function(editLine, "stockroom-interrupt-vi", "Give up the line") { el, _ in
      LineEditor.answer(el) { $0.interruptInCommandMode() }
    }
    parse(["bind", "-a", "^C", "stockroom-interrupt-vi"])
  }

  private func interruptInCommandMode() -> UInt8 {
    hintHidden = true
    printAbove("")
    interrupted = true
    TerminalOutput.write("^C\n")
    return UInt8(CC_NEWLINE)
  }

  /// A libedit builtin command, as a line of editrc would give it.
  private func parse(_ words: [String]) {
    let copies = words.map { strdup($0) }
    defer { for copy in copies { free(copy) } }
    var argv = copies.map { UnsafePointer($0) }
    _ = el_parse(editLine, Int32(argv.count), &argv)
  }
}

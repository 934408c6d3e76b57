import CLibedit
import CStockroomShims

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// What libedit draws around the line: the prompt, and the hint as its right prompt.
extension LineEditor {
  func promptCString() -> UnsafeMutablePointer<CChar>? {
    free(promptBuffer)
    // libedit drops an escape sequence at the very end of the right prompt, so the reset
    // after the dimmed hint comes with a space there and again before the prompt.
    let esc = String(UnicodeScalar(UInt8(Self.escape)))
    promptBuffer = strdup(palette.isEnabled ? esc + "\u{1B}[0m" + esc + prompt : prompt)
    return promptBuffer
  }

  // libedit only redraws the whole line on each key while the right prompt is non-empty,
  // so a space stands in when there is no hint.
  func hintCString() -> UnsafeMutablePointer<CChar>? {
    free(hintBuffer)
    var text = " "
    let line = currentLine()
    // libedit leaves out a right prompt that does not fit, so a long hint is cut to fit.
    // Without colour nothing dims the hint, so it is labelled: `[n] [<item> ...]` alone at
    // the line's end reads like text typed there.
    let label = palette.isEnabled ? "" : Self.plainHintLabel
    // A suggestion after the cursor shows what would come; the usage hint gives way to it, as
    // fish shows one or the other.
    let suggested = suggestion() != nil
    let room =
      Int(sr_el_columns(editLine)) - DisplayWidth.of(prompt) - DisplayWidth.of(line) - 4 - label.count
    // After a word marked wrong (`LIST dishs`) no hint: what to type next would read as if the
    // word were taken. Only where words are marked, since nothing else would say why it went.
    let markedWrong = palette.isEnabled && (highlight?(line).contains { $0.style == .unknown } ?? false)
    if !hintHidden, !suggested, !markedWrong, room > 4, let full = hint(line) {
      let hint = DisplayWidth.truncate(full, to: room)
      let esc = String(UnicodeScalar(UInt8(Self.escape)))
      text =
        palette.isEnabled ? esc + "\u{1B}[2m" + esc + hint + esc + "\u{1B}[0m" + esc + " " : label + hint
    }
    hintText = text
    hintBuffer = strdup(text)
    return hintBuffer
  }
}

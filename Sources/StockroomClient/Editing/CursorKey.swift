/// The cursor keys a terminal sends as escape sequences, each told as what libedit should do
/// with it: mostly the emacs control key that does the same thing (Right is Ctrl-F, Up is
/// Ctrl-P).
///
/// libedit's incremental search (Ctrl-R) ends at an ESC and then inserts the rest of the
/// sequence (`[C`, or `[1;5D` for Ctrl-Left) as text; a control key instead ends the search
/// and is then run, which is what readline does with an arrow. Outside a search the control
/// key moves just as the arrow would. Keys that no control key stands for (a word left or
/// right, Delete) are done by the editor itself, behind one private control key; a sequence
/// not known here is swallowed whole rather than typed.
enum CursorKey: Equatable {
  /// Run this control byte.
  case control(UInt8)
  /// Ctrl- or Alt-Left, or Alt-B: to the start of this word, or the one before.
  case wordLeft
  /// Ctrl- or Alt-Right, or Alt-F: to the end of this word, or the next; at the end of the
  /// line, the suggestion's next word.
  case wordRight
  /// Delete: the character under the cursor.
  case deleteForward
  /// A key with nothing to do in a line; dropped.
  case ignored

  /// What a whole sequence after ESC means (`[C`, `OC` in application mode, `[1;5C` with a
  /// modifier, `[3~`); nil when it is no sequence a key sends, which is passed on untouched.
  static func key(for sequence: [UInt8]) -> CursorKey? {
    // Alt-F and Alt-B, ESC and the letter: a word right or left, as the arrows with Ctrl.
    if sequence == [UInt8(ascii: "f")] { return .wordRight }
    if sequence == [UInt8(ascii: "b")] { return .wordLeft }
    guard let introducer = sequence.first, let final = sequence.last, sequence.count >= 2 else { return nil }
    if introducer == UInt8(ascii: "O") {
      guard sequence.count == 2 else { return nil }
      // rxvt sends Ctrl-Left and Ctrl-Right as `Od` and `Oc`.
      if final == UInt8(ascii: "d") { return .wordLeft }
      if final == UInt8(ascii: "c") { return .wordRight }
      return arrow(final).map(CursorKey.control) ?? .ignored
    }
    guard introducer == UInt8(ascii: "[") else { return nil }
    let parameters = String(decoding: sequence.dropFirst().dropLast(), as: UTF8.self).split(separator: ";")
    if final == UInt8(ascii: "~") {
      switch parameters.first {
      case "1", "7": return .control(0x01)  // Home as tmux and the Linux console send it
      case "4", "8": return .control(0x05)  // End
      case "3": return .deleteForward
      default: return .ignored
      }
    }
    guard let control = arrow(final) else { return .ignored }
    // `[1;5D`: the second number is the modifier, 1 plus Shift 1, Alt 2, Ctrl 4.
    let modifier = parameters.count == 2 ? (Int(parameters[1]) ?? 1) - 1 : 0
    if modifier & 6 != 0 {
      if control == 0x02 { return .wordLeft }
      if control == 0x06 { return .wordRight }
    }
    return .control(control)
  }

  /// True for the byte that ends a control sequence after `ESC [`.
  static func isFinal(_ byte: UInt8) -> Bool { (0x40...0x7E).contains(byte) }

  private static func arrow(_ final: UInt8) -> UInt8? {
    switch final {
    case UInt8(ascii: "A"): return 0x10  // Up: Ctrl-P, previous history line
    case UInt8(ascii: "B"): return 0x0E  // Down: Ctrl-N, next history line
    case UInt8(ascii: "C"): return 0x06  // Right: Ctrl-F, next character
    case UInt8(ascii: "D"): return 0x02  // Left: Ctrl-B, previous character
    case UInt8(ascii: "H"): return 0x01  // Home: Ctrl-A, start of line
    case UInt8(ascii: "F"): return 0x05  // End: Ctrl-E, end of line
    default: return nil
    }
  }

  /// Where a word motion from `cursor` lands in `line`, counted in Unicode scalars as
  /// libedit counts; words are letters and digits (Hangul included) and `_`, as in readline.
  static func target(of key: CursorKey, in line: [Unicode.Scalar], from cursor: Int) -> Int {
    func isWord(_ index: Int) -> Bool {
      let scalar = line[index]
      return scalar == "_" || scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }
    var position = min(max(cursor, 0), line.count)
    switch key {
    case .wordLeft:
      while position > 0, !isWord(position - 1) { position -= 1 }
      while position > 0, isWord(position - 1) { position -= 1 }
    case .wordRight:
      while position < line.count, !isWord(position) { position += 1 }
      while position < line.count, isWord(position) { position += 1 }
    default: break
    }
    return position
  }
}

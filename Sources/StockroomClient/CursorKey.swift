/// The cursor keys a terminal sends as escape sequences, each told as the emacs control key
/// that does the same thing (Right is Ctrl-F, Up is Ctrl-P).
///
/// libedit's incremental search (Ctrl-R) ends at an ESC and then inserts the rest of the
/// sequence (`[C`) as text; a control key instead ends the search and is then run, which is
/// what readline does with an arrow. Outside a search the control key moves just as the
/// arrow would.
enum CursorKey {
  /// The control byte for a sequence after ESC (`[C`, or `OC` in application mode), or nil
  /// for any other sequence, which is passed on untouched.
  static func control(for sequence: [UInt8]) -> UInt8? {
    // Home and End as tmux and the Linux console send them.
    switch sequence {
    case Array("[1~".utf8), Array("[7~".utf8): return 0x01
    case Array("[4~".utf8), Array("[8~".utf8): return 0x05
    default: break
    }
    guard sequence.count == 2, sequence[0] == UInt8(ascii: "[") || sequence[0] == UInt8(ascii: "O")
    else { return nil }
    switch sequence[1] {
    case UInt8(ascii: "A"): return 0x10  // Up: Ctrl-P, previous history line
    case UInt8(ascii: "B"): return 0x0E  // Down: Ctrl-N, next history line
    case UInt8(ascii: "C"): return 0x06  // Right: Ctrl-F, next character
    case UInt8(ascii: "D"): return 0x02  // Left: Ctrl-B, previous character
    case UInt8(ascii: "H"): return 0x01  // Home: Ctrl-A, start of line
    case UInt8(ascii: "F"): return 0x05  // End: Ctrl-E, end of line
    default: return nil
    }
  }
}

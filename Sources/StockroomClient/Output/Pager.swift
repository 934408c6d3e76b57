/// Shows a reply taller than the terminal through `$PAGER`, the way psql does, so its top
/// does not scroll away before it can be read.
struct Pager {
  /// The shell command, e.g. `less -FRX`.
  var command: String

  /// True when `text` needs more lines than a `rows` by `columns` screen has, keeping one for
  /// the prompt that follows it. Long lines count as the lines they wrap into.
  static func isTaller(_ text: String, rows: Int, columns: Int) -> Bool {
    guard rows > 0, columns > 0 else { return false }
    var used = 0
    for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
      let width = DisplayWidth.of(withoutEscapes(line))
      used += max(1, (width + columns - 1) / columns)
      if used > rows - 1 { return true }
    }
    return false
  }

  /// Hands the terminal to the pager until it exits; false when it could not be started,
  /// so the caller prints the text itself.
  func show(_ text: String) -> Bool {
    ChildProcess.whileForeground {
      guard let child = try? ChildProcess.shell(command, pipeInput: true) else { return false }
      child.feed(text)
      // sh answers 127 when the pager named does not exist; it has said so on stderr.
      return child.wait() != 127
    }
  }

  /// The text as the terminal shows it: colour sequences take no room.
  static func withoutEscapes(_ line: Substring) -> String {
    var out = ""
    var inEscape = false
    for scalar in line.unicodeScalars {
      if inEscape {
        if (0x40...0x7E).contains(scalar.value) && scalar != "[" { inEscape = false }
        continue
      }
      if scalar == "\u{1B}" {
        inEscape = true
        continue
      }
      out.unicodeScalars.append(scalar)
    }
    return out
  }
}

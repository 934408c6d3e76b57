/// Where a REPL line's reply goes instead of the screen, as in a shell: `LIST dishes | grep 찌개`
/// into a command run by the user's `$SHELL`, `STOCK > stock.txt` into a file, `>>` to add to
/// one. The first `|` or `>` outside double quotes splits the line, so `NAME "a | b"` keeps its
/// argument; after it the text is the shell's or the file name, as typed.
public struct OutputRedirect: Sendable, Equatable {
  public enum Target: Sendable, Equatable {
    case pipe(String)
    case file(String, append: Bool)
  }

  /// What goes to the server.
  public var command: String
  /// Nil when the reply goes to the screen as usual.
  public var target: Target?

  public init(command: String, target: Target?) {
    self.command = command
    self.target = target
  }

  public struct Invalid: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
  }

  /// Splits `line` at its first unquoted `|` or `>`.
  public static func split(_ line: String) throws(Invalid) -> OutputRedirect {
    guard let (index, mark) = firstUnquotedMark(in: line) else { return OutputRedirect(command: line, target: nil) }
    let command = String(line[..<index]).trimmingSpaces()
    var rest = line[line.index(after: index)...]
    var append = false
    if mark == ">" && rest.first == ">" {
      append = true
      rest = rest.dropFirst()
    }
    let destination = String(rest).trimmingSpaces()
    let shown = append ? ">>" : String(mark)
    guard !command.isEmpty else {
      throw Invalid(description: "nothing before \(shown): a server command's reply is what goes \(Self.goes(mark))")
    }
    guard !destination.isEmpty else {
      throw Invalid(
        description: mark == "|"
          ? "nothing after |: give a shell command, as in LIST dishes | grep 찌개"
          : "nothing after \(shown): give a file name, as in STOCK > stock.txt")
    }
    return OutputRedirect(
      command: command, target: mark == "|" ? .pipe(destination) : .file(destination, append: append))
  }

  private static func goes(_ mark: Character) -> String { mark == "|" ? "through the pipe" : "into the file" }

  /// The first `|` or `>` outside a double-quoted part; inside one a backslash escapes the
  /// next character, as the protocol reads it.
  static func firstUnquotedMark(in line: String) -> (String.Index, Character)? {
    var quoted = false
    var escaped = false
    for index in line.indices {
      let character = line[index]
      if escaped {
        escaped = false
      } else if quoted && character == "\\" {
        escaped = true
      } else if character == "\"" {
        quoted.toggle()
      } else if !quoted && (character == "|" || character == ">") {
        return (index, character)
      }
    }
    return nil
  }
}

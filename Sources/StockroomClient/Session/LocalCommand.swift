/// Commands the client answers without a round trip.
public enum LocalCommand: Sendable, Equatable {
  case help([String])
  case clear
  case history
  case json(Bool?)
  /// `:timing on`: how long each command took, as psql's `\timing` says it.
  case timing(Bool?)
  /// `:pager off`: long replies straight to the terminal.
  case pager(Bool?)
  case quit
  /// `:top`: the live board, until `q` brings the prompt back.
  case top

  /// The words completion offers besides the server's commands.
  public static let words = [":clear", ":history", ":json", ":timing", ":pager", ":top"]

  /// The local command a line is, or nil when it goes to the server.
  public static func parse(_ line: String) -> LocalCommand? {
    let words = line.split(separator: " ").map(String.init)
    guard let first = words.first else { return nil }
    switch first.lowercased() {
    case "help": return .help(Array(words.dropFirst()))
    case ":clear": return .clear
    case ":history": return .history
    case ":json": return .json(switchWord(words))
    case ":timing": return .timing(switchWord(words))
    case ":pager": return .pager(switchWord(words))
    case ":top": return .top
    case "quit", "exit", ":quit", ":q": return .quit
    default: return nil
    }
  }

  /// `on` or `off` after the command; nil (toggle) for anything else.
  private static func switchWord(_ words: [String]) -> Bool? {
    switch words.dropFirst().first?.lowercased() {
    case "on": return true
    case "off": return false
    default: return nil
    }
  }
}

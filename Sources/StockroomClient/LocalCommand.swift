/// Commands the client answers without a round trip.
public enum LocalCommand: Sendable, Equatable {
  case help([String])
  case clear
  case history
  case json(Bool?)
  case quit
  /// `:top`: the live board, until `q` brings the prompt back.
  case top

  /// The words completion offers besides the server's commands.
  public static let words = [":clear", ":history", ":json", ":top"]

  /// The local command a line is, or nil when it goes to the server.
  public static func parse(_ line: String) -> LocalCommand? {
    let words = line.split(separator: " ").map(String.init)
    guard let first = words.first else { return nil }
    switch first.lowercased() {
    case "help": return .help(Array(words.dropFirst()))
    case ":clear": return .clear
    case ":history": return .history
    case ":top": return .top
    case ":json":
      switch words.dropFirst().first?.lowercased() {
      case "on": return .json(true)
      case "off": return .json(false)
      default: return .json(nil)
      }
    case "quit", "exit", ":quit", ":q": return .quit
    default: return nil
    }
  }
}

import StockroomText

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
  /// A `:` word the client does not know: answered by the client, never sent, since no
  /// server command starts with `:`.
  case unknown(String)

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
    default: return first.hasPrefix(":") ? .unknown(first) : nil
    }
  }

  /// What the REPL says to an unknown `:` word: the nearest known one, and the whole list.
  public static func unknownMessage(_ word: String) -> String {
    let known = words + [":quit"]
    let list = known.joined(separator: " ")
    let message = "unknown client command '\(word)' (not sent)"
    guard let guess = NameSuggestion.closest(to: word.lowercased(), among: known) else {
      return message + "; client commands: " + list
    }
    return message + "; did you mean \(guess)? Client commands: " + list
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

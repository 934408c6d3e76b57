import StockroomText

/// Commands the client answers without a round trip.
public enum LocalCommand: Sendable, Equatable {
  case help([String])
  case clear
  case history
  case json(SwitchArgument)
  /// `:timing on`: how long each command took, as psql's `\timing` says it.
  case timing(SwitchArgument)
  /// `:pager off`: long replies straight to the terminal.
  case pager(SwitchArgument)
  case quit
  /// `:top`: the live board, until `q` brings the prompt back.
  case top
  /// `:!cmd`: a shell command, run with `$SHELL` on the terminal; `:!` alone, a shell.
  case shell(String)
  /// `:wide on`: tables keep every column, however wide, as `--wide` does.
  case wide(SwitchArgument)
  /// `:next` (+1) and `:prev` (-1): the page beside the last paged list shown.
  case page(Int)
  /// `:watch SECONDS COMMAND`: the command every SECONDS in place until Ctrl-C; the words
  /// after `:watch`, which `WatchRequest` reads.
  case watch([String])
  /// `:connect URL`: another server, or the same one afresh.
  case connect(String?)
  /// `:help`: the client's own commands, one line each.
  case clientHelp
  /// A `:` word the client does not know: answered by the client, never sent, since no
  /// server command starts with `:`.
  case unknown(String)

  /// The words completion offers besides the server's commands.
  public static let words = [
    ":clear", ":connect", ":help", ":history", ":json", ":next", ":prev", ":timing", ":pager", ":top", ":watch",
    ":wide", ":!",
  ]

  /// The client commands that take `on` or `off`.
  public static let switches: Set<String> = [":json", ":timing", ":pager", ":wide"]

  /// What `:help` prints: each client command and what it does.
  public static let summaries: [(usage: String, summary: String)] = [
    (":clear", "clear the screen"),
    (":connect URL", "connect to stockroom://[USER@]HOST[:PORT] (stockrooms:// for TLS)"),
    (":help", "this list; HELP [COMMAND | @GROUP] is the server's commands"),
    (":history", "the lines typed, numbered; Ctrl-R searches them"),
    (":json [on|off]", "replies as JSON; alone, says how it stands"),
    (":next, :prev", "the next or previous page of the last paged list"),
    (":timing [on|off]", "how long each command took; alone, says how it stands"),
    (":pager [on|off]", "long replies through $PAGER; alone, says how it stands"),
    (":top", "the live board until q"),
    (":watch SECONDS COMMAND", "COMMAND again every SECONDS, in place, until Ctrl-C, q or an ERR"),
    (":wide [on|off]", "tables with every column, whatever the width; alone, says how it stands"),
    (":!COMMAND", "run COMMAND with $SHELL; :! alone starts a shell"),
    (":quit", "leave (also quit, exit, Ctrl-D)"),
    ("COMMAND | SHELL", "the reply, as printed here, into a shell command"),
    ("COMMAND > FILE", "the reply into FILE (>> adds to it)"),
  ]

  /// The local command a line is, or nil when it goes to the server.
  public static func parse(_ line: String) -> LocalCommand? {
    let words = line.split(separator: " ").map(String.init)
    guard let first = words.first else { return nil }
    if first.hasPrefix(":!") { return .shell(String(line.trimmingSpaces().dropFirst(2)).trimmingSpaces()) }
    // psql's `\timing` and a shell's `!ls`: no server command starts so, and the client has
    // them as `:timing` and `:!ls`.
    if first.hasPrefix("\\") || first.hasPrefix("!") { return .unknown(line.trimmingSpaces()) }
    switch first.lowercased() {
    case "help": return .help(Array(words.dropFirst()))
    case ":clear": return .clear
    case ":help": return .clientHelp
    case ":history": return .history
    case ":json": return .json(SwitchArgument(words.dropFirst()))
    case ":timing": return .timing(SwitchArgument(words.dropFirst()))
    case ":pager": return .pager(SwitchArgument(words.dropFirst()))
    case ":top": return .top
    case ":wide": return .wide(SwitchArgument(words.dropFirst()))
    case ":next": return .page(1)
    case ":prev": return .page(-1)
    case ":connect": return .connect(words.dropFirst().first)
    case ":watch": return .watch(Array(words.dropFirst()))
    case "quit", "exit", ":quit", ":q": return .quit
    default: return first.hasPrefix(":") ? .unknown(first) : nil
    }
  }

  /// What the REPL says to an unknown `:` word: the nearest known one, and the whole list.
  public static func unknownMessage(_ word: String) -> String {
    if word.hasPrefix("!") {
      return "'\(word)' was not sent: a shell command is :\(word), as in :!ls"
    }
    if word.hasPrefix("\\") {
      let meant = ":" + word.dropFirst()
      return "'\(word)' was not sent: the client's commands start with ':', as \(meant)"
    }
    let known = words + [":quit"]
    let list = known.joined(separator: " ")
    let message = "unknown client command '\(word)' (not sent)"
    guard let guess = NameSuggestion.closest(to: word.lowercased(), among: known) else {
      return message + "; client commands: " + list
    }
    return message + "; did you mean \(guess)? Client commands: " + list
  }
}

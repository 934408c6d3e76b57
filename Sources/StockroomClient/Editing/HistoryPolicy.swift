import StockroomProtocol

/// Where history lives and which lines may be written there.
public enum HistoryPolicy {
  public static let maximumEntries = 1000

  /// `$STOCKROOM_HISTFILE`, else `~/.stockroom_history`; nil when history is off (`/dev/null`,
  /// or no home to put it in).
  public static func file(environment: [String: String]) -> String? {
    if let path = environment["STOCKROOM_HISTFILE"], !path.isEmpty {
      return path == "/dev/null" ? nil : path
    }
    guard let home = environment["HOME"], !home.isEmpty else { return nil }
    return home + "/.stockroom_history"
  }

  /// Words no command of the table has, but that other shells' habits carry a secret after.
  private static let secretCommands: Set<String> = ["AUTH", "PASSWORD"]
  private static let secretKeys: Set<String> = ["password", "passwd", "pass", "secret", "token"]

  /// False for blank lines and for lines that carry a secret, which must never reach the file.
  ///
  /// Which commands carry one is read from the command table: any command or subcommand with
  /// a `.password` argument or option, so a command added to the table later is kept out
  /// without a change here.
  public static func shouldRemember(_ line: String) -> Bool {
    let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map { $0.trimmingQuote() }
    guard let first = words.first else { return false }
    if secretCommands.contains(first.uppercased()) { return false }
    if let spec = CommandTable.command(named: first), mayCarryPassword(spec, after: words.dropFirst()) {
      return false
    }
    for word in words.dropFirst() {
      if let equals = word.firstIndex(of: "="), secretKeys.contains(word[..<equals].lowercased()) {
        return false
      }
    }
    return true
  }

  /// True when the spec itself takes a password (as an argument or an option).
  public static func takesPassword(_ spec: CommandSpec) -> Bool {
    spec.arguments.contains { $0.kind == .password } || spec.options.contains { $0.kind == .password }
  }

  /// A command with subcommands carries a password when the named subcommand takes one, or
  /// when no known subcommand is named and any of them takes one: a mistyped `USER ADDD bob pw`
  /// still holds the password.
  private static func mayCarryPassword(_ spec: CommandSpec, after rest: ArraySlice<String>) -> Bool {
    if takesPassword(spec) { return true }
    guard !spec.subcommands.isEmpty else { return false }
    if let word = rest.first, let sub = spec.subcommand(named: word) { return takesPassword(sub) }
    return spec.subcommands.contains(where: takesPassword)
  }
}

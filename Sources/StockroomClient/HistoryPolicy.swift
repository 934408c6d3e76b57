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

  private static let secretCommands: Set<String> = ["LOGIN", "AUTH", "PASSWORD", "PASSWD"]
  private static let secretKeys: Set<String> = ["password", "passwd", "pass", "secret", "token"]

  /// False for blank lines and for lines that carry a secret, which must never reach the file.
  public static func shouldRemember(_ line: String) -> Bool {
    let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
    guard let first = words.first else { return false }
    if secretCommands.contains(first.uppercased()) { return false }
    for word in words.dropFirst() {
      if let equals = word.firstIndex(of: "=") {
        let key = word[..<equals].lowercased().trimmingQuote()
        if secretKeys.contains(key) { return false }
      }
    }
    return true
  }
}

extension String {
  fileprivate func trimmingQuote() -> String {
    var copy = self
    while copy.first == "\"" { copy.removeFirst() }
    return copy
  }
}

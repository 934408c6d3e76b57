/// fish's autosuggestion: what the newest history line that starts with the typed text would
/// add to it, drawn dimmed after the cursor for Right or Ctrl-F to take.
enum Autosuggestion {
  /// The rest of the newest line in `history` (oldest first) that starts with `line` and is
  /// longer; nil when nothing is typed or nothing matches.
  ///
  /// Lines HistoryPolicy would not keep are never offered, although the editor never enters
  /// them: a history file written by hand, or by a client before the policy, may still hold
  /// a password, and a suggestion would put it on the screen. Prefixes are compared by Unicode
  /// scalars, as libedit counts the buffer, so the rest is exactly what inserting it adds.
  static func rest(of line: String, history: [String]) -> String? {
    guard !line.isEmpty, !line.contains("\n") else { return nil }
    let typed = Array(line.unicodeScalars)
    for entry in history.reversed() {
      let scalars = entry.unicodeScalars
      guard scalars.count > typed.count, scalars.starts(with: typed), HistoryPolicy.shouldRemember(entry) else {
        continue
      }
      var rest = String.UnicodeScalarView()
      rest.append(contentsOf: scalars.dropFirst(typed.count))
      return String(rest)
    }
    return nil
  }
}

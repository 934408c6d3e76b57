/// Up and Down with text on the line, as zsh's history-beginning-search and fish's Up: the
/// history lines that start with what was typed, newest first and each once; Down past the
/// newest brings back what was typed. With nothing typed every line matches, which is the
/// plain walk through history that Up always was.
struct PrefixSearch {
  /// The line as it was when the search began.
  let typed: String
  private let matches: [String]
  /// Into `matches`; -1 while the typed line itself is shown.
  private var index = -1

  /// `history` is oldest first. Lines HistoryPolicy would not keep are left out for the
  /// reason `Autosuggestion` leaves them out.
  init(typed: String, history: [String]) {
    self.typed = typed
    // Without regard to case, as commands are: `stock` finds `STOCK kiwi`.
    let prefix = Array(typed.lowercased().unicodeScalars)
    var seen: Set<String> = [typed]
    matches = history.reversed().filter { entry in
      entry.lowercased().unicodeScalars.starts(with: prefix) && HistoryPolicy.shouldRemember(entry)
        && seen.insert(entry).inserted
    }
  }

  /// What the line shows now: a match, or what was typed.
  var shown: String { index < 0 ? typed : matches[index] }

  /// Moves to the next older match; false, with nothing moved, when there is none.
  mutating func older() -> Bool {
    guard index + 1 < matches.count else { return false }
    index += 1
    return true
  }

  /// Moves to the next newer match, or back to what was typed; false when already there.
  mutating func newer() -> Bool {
    guard index >= 0 else { return false }
    index -= 1
    return true
  }
}

/// What follows a switch (`:json`, `:timing`, `:wide`, `:pager`): a setting, nothing, or a word
/// that is neither. Alone, every switch says how it stands and changes nothing, as `:pager` did
/// first: a toggle that a mistyped `true` flips the wrong way is worse than one more word.
public enum SwitchArgument: Sendable, Equatable {
  case set(Bool)
  /// The switch alone: its state is said, nothing changes.
  case report
  /// Not a setting: refused with the words that are, nothing changed.
  case invalid(String)

  /// The words that turn a switch on, then off, as psql's `\pset` and most config files take them.
  public static let onWords = ["on", "true", "yes", "1"]
  public static let offWords = ["off", "false", "no", "0"]

  /// The words after the switch's own.
  public init(_ words: ArraySlice<String>) {
    guard let word = words.first else {
      self = .report
      return
    }
    let lowered = word.lowercased()
    if words.count == 1, Self.onWords.contains(lowered) {
      self = .set(true)
    } else if words.count == 1, Self.offWords.contains(lowered) {
      self = .set(false)
    } else {
      self = .invalid(words.joined(separator: " "))
    }
  }

  /// What the REPL says to a word that is not a setting.
  public static func refusal(_ command: String, _ word: String) -> String {
    "\(command) takes on or off (or true/false, yes/no, 1/0), not '\(word)'; nothing changed"
  }
}

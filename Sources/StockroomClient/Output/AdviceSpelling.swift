/// How a reply's advice names what to do next: a one-shot command is told its options
/// (`--wide`, `page=2`), the REPL its own commands (`:wide on`, `:next`).
public enum AdviceSpelling: Sendable, Equatable {
  case commandLine
  case repl

  /// What shows every column.
  var wide: String { self == .repl ? ":wide on" : "--wide" }

  /// What shows the page after `page`.
  func nextPage(after page: Int) -> String { self == .repl ? ":next" : "page=\(page + 1)" }
}

/// How a word of the line being typed is shown, as the command table and the server's names
/// read it; each is one SGR parameter string.
enum LineStyle: String, Sendable, Equatable {
  /// A command, subcommand or client command the client knows.
  case command = "32"
  /// A command no command starts with, an item the shop does not have, a word where a number
  /// must go, an option the command does not take, a word more than the command takes:
  /// red and underlined, so it reads without colour vision too.
  case unknown = "31;4"
  /// An item, section or category the server named.
  case item = "36"
  case number = "33"
  /// An option's `key=`.
  case option = "34"
  /// Text in double quotes.
  case quoted = "35"
}

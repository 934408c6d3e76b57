/// The `key=` words commands take, as one closed set: the table declares them, the parser
/// admits only those a command's table entry lists, and handlers read them by case, so a
/// misspelt key is a compile error rather than an option silently never seen.
public enum OptionKey: String, Sendable, Hashable, CaseIterable {
  case page, size
  case title, body
  case role
  case key
  case name, description, price, currency, discount, stock

  /// The key as it is typed before its value: `page=`.
  public var word: String { rawValue + "=" }
}

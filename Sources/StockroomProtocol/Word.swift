/// One word of a request or data line, after quotes and escapes are undone.
///
/// A word written `key=value` with a bare (unquoted) identifier before the first `=` is an
/// option; `"key=value"` in quotes is an ordinary word. That lets free text contain `=`.
public struct Word: Sendable, Equatable, CustomStringConvertible {
  public let text: String
  /// The option's key, lower-cased, when the word is an option.
  public let key: String?
  /// For an option, the text after `=`; otherwise the whole word.
  public let value: String

  public init(_ text: String) {
    self.text = text
    self.key = nil
    self.value = text
  }

  /// An option; `text` keeps the word as written (its key's case too), for commands that take
  /// no options and read the word as plain text.
  public init(key: String, value: String, text: String? = nil) {
    self.text = text ?? key + "=" + value
    self.key = key.lowercased()
    self.value = value
  }

  public var isOption: Bool { key != nil }
  public var description: String { text }
}

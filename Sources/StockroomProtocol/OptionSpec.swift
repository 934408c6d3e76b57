/// A `key=value` word a command accepts.
public struct OptionSpec: Sendable, Hashable {
  public var key: OptionKey
  public var kind: ArgumentKind
  public var isRequired: Bool
  public var summary: String

  public init(_ key: OptionKey, _ kind: ArgumentKind, required: Bool = false, _ summary: String) {
    self.key = key
    self.kind = kind
    self.isRequired = required
    self.summary = summary
  }
}

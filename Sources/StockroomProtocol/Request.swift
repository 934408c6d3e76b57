/// A request that passed the command table's checks.
public struct Request: Sendable {
  /// The command, or the subcommand for DIARY and PRODUCT.
  public var spec: CommandSpec
  /// The command words as HELP writes them: `DIARY NEW`.
  public var path: String
  /// Positional words after the command (and subcommand).
  public var arguments: [Word]
  /// `key=value` words, by lower-cased key.
  public var options: [OptionKey: String]

  public init(spec: CommandSpec, path: String, arguments: [Word], options: [OptionKey: String]) {
    self.spec = spec
    self.path = path
    self.arguments = arguments
    self.options = options
  }

  public var id: CommandID { spec.id }
}

/// One `stockroomd` option: how it is spelled on the command line and in the config file, its
/// help, and what it sets. `ServerOptions.all` holds every one; the command line, the config
/// file, `--help` and `--check-config` all read that one table, so they cannot disagree.
public struct ServerOption: Sendable {
  /// What giving the option does.
  public enum Action: Sendable {
    /// Takes a value; the closure checks it and sets it, or says what it should have been.
    case value(placeholder: String, @Sendable (inout OptionSettings, String) throws(OptionProblem) -> Void)
    /// Takes no value on the command line (`--quiet`); in the file, `yes` or `no`.
    case flag(@Sendable (inout OptionSettings, Bool) -> Void)
    /// Decides what `stockroomd` does rather than how it serves; command line only.
    case command(Command)
  }

  /// The options that are not settings: they never appear as keys in the config file.
  public enum Command: Sendable, Equatable {
    case help, version, checkConfig
    /// `--config FILE`: which file the keys come from.
    case config

    /// What it takes after it on the command line, if anything.
    var placeholder: String? { self == .config ? "FILE" : nil }
  }

  /// The long name without dashes: `--max-clients` on the command line, `max-clients` in the file.
  public let name: String
  /// A one-letter spelling for the command line (`-p`), if any.
  public let short: Character?
  public let action: Action
  /// What `--help` says, first line beside the option; later lines are indented under it.
  public let help: String
  /// The value may hold a password (a store URL), so no error repeats it.
  public let isSecret: Bool

  public init(
    _ name: String, short: Character? = nil, _ action: Action, secret: Bool = false, help: String
  ) {
    self.name = name
    self.short = short
    self.action = action
    self.help = help
    self.isSecret = secret
  }

  /// Whether the config file may set it.
  public var isKey: Bool {
    if case .command = action { return false }
    return true
  }

  /// What follows the option on the command line (`N`, `FILE`); nil when nothing does.
  public var placeholder: String? {
    switch action {
    case .value(let placeholder, _): placeholder
    case .flag: nil
    case .command(let command): command.placeholder
    }
  }

  public var takesValue: Bool { placeholder != nil }

  /// `--max-clients N` as `--help` writes it.
  public var synopsis: String {
    let text = short.map { "-\($0), --\(name)" } ?? "--\(name)"
    return placeholder.map { "\(text) \($0)" } ?? text
  }
}

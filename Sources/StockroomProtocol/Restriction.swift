/// A stricter role for one use of a command: an option (`ORDER key=`) or one value of an
/// argument (`LIST orders`). Part of the command table, so dispatch enforces it with the
/// command's own role, in one place, and HELP shows it.
public struct Restriction: Sendable, Hashable {
  public enum Trigger: Sendable, Hashable {
    /// The request carries this `key=` option.
    case option(OptionKey)
    /// The positional argument at this index is this word (compared case-insensitively).
    case argument(index: Int, value: String)
  }

  public let trigger: Trigger
  public let role: Role
  /// Why, for HELP and the error: "keyed orders belong to an account".
  public let reason: String

  public init(_ trigger: Trigger, role: Role, _ reason: String) {
    self.trigger = trigger
    self.role = role
    self.reason = reason
  }

  /// How HELP writes the trigger: `key=` or `orders`.
  public var label: String {
    switch trigger {
    case .option(let key): key.word
    case .argument(_, let value): value
    }
  }

  public func applies(to request: Request) -> Bool {
    switch trigger {
    case .option(let key): request.options[key] != nil
    case .argument(let index, let value):
      index < request.arguments.count && request.arguments[index].text.lowercased() == value
    }
  }
}

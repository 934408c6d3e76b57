import StockroomText

/// One row of the command table: everything dispatch, HELP, argument checks and client
/// completion need to know about a command, as data.
///
/// A class, not a struct: every request carries its spec, and passing one reference is cheaper
/// than copying a dozen fields with arrays in them.
public final class CommandSpec: Sendable {
  public enum Flag: String, Sendable, Hashable, CaseIterable {
    /// Changes shared state.
    case write
    /// Only reads shared state.
    case read
    /// Concerns this connection only.
    case connection
  }

  public let id: CommandID
  /// Upper-case name as written in HELP; a subcommand's is its own word (`NEW`).
  public let name: String
  /// Where HELP lists it (`HELP @shop`); a subcommand is in its command's group.
  public let group: CommandGroup
  public let summary: String
  public let arguments: [Argument]
  /// True when the whole argument pattern may repeat (`ORDER a 1 b 2`).
  public let repeats: Bool
  public let options: [OptionSpec]
  /// The least role that may run the command at all.
  public let role: Role
  /// Uses of the command that need more than `role`.
  public let restrictions: [Restriction]
  public let flags: Set<Flag>
  /// `flags` holds `.write`: read for every request, where a set would hash the flag.
  public let isWrite: Bool
  public let examples: [String]
  public let subcommands: [CommandSpec]
  /// Fewest positional words the command takes: read for every request, so counted once here.
  public let minimumArguments: Int
  /// Most positional words, or nil when the pattern repeats.
  public let maximumArguments: Int?
  /// Whether any option is required, so that a request of a command without one (most) does
  /// not walk its options to find out.
  let requiresOptions: Bool

  public init(
    _ id: CommandID, _ name: String, group: CommandGroup, role: Role = .guest, flags: Set<Flag>,
    arguments: [Argument] = [], repeats: Bool = false, options: [OptionSpec] = [],
    restrictions: [Restriction] = [],
    summary: String, examples: [String] = [], subcommands: [CommandSpec] = []
  ) {
    self.id = id
    self.name = name
    self.group = group
    self.summary = summary
    self.arguments = arguments
    self.repeats = repeats
    self.options = options
    self.role = role
    self.restrictions = restrictions
    self.flags = flags
    self.isWrite = flags.contains(.write)
    self.examples = examples
    self.subcommands = subcommands
    self.minimumArguments = arguments.prefix { !$0.isOptional }.count
    self.maximumArguments = repeats ? nil : arguments.count
    self.requiresOptions = options.contains { $0.isRequired }
  }

  /// The arguments as a person reads them: `<item> [n] [<item> [n] ...]`.
  public var argumentSynopsis: String {
    if !subcommands.isEmpty {
      return subcommands.map(\.name).joined(separator: "|") + " ..."
    }
    var parts = arguments.map { $0.isOptional ? "[\($0.name)]" : "<\($0.name)>" }
    if repeats {
      parts.append(
        "[" + arguments.map { $0.isOptional ? "[\($0.name)]" : "<\($0.name)>" }.joined(separator: " ") + " ...]")
    }
    for option in options {
      let text = "\(option.key.word)<\(option.kind.rawValue)>"
      parts.append(option.isRequired ? text : "[\(text)]")
    }
    return parts.joined(separator: " ")
  }

  /// `ORDER <item> [n] ...` as HELP and error messages write it; `path` is the command words
  /// that reach this spec (`DIARY NEW` for a subcommand).
  public func usage(path: String) -> String {
    let synopsis = argumentSynopsis
    return synopsis.isEmpty ? path : path + " " + synopsis
  }

  /// The option this command takes whose key is `key` as typed in lower case (`price`); nil
  /// when it takes none by that name. The parser, the client's completion and its highlighting
  /// all look options up here.
  public func option(named key: some StringProtocol) -> OptionSpec? {
    options.first { $0.key.rawValue == key }
  }

  /// The least role that may run `request` of this command: its own role, raised by any
  /// restriction the request meets, with the reason of the restriction that raised it.
  public func requiredRole(for request: Request) -> (role: Role, reason: String?) {
    var needed: (role: Role, reason: String?) = (role, nil)
    for restriction in restrictions where restriction.role > needed.role && restriction.applies(to: request) {
      needed = (restriction.role, restriction.reason)
    }
    return needed
  }

  public func subcommand(named word: String) -> CommandSpec? {
    let upper = word.uppercased()
    return subcommands.first { $0.name == upper }
  }
}

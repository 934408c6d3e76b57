import StockroomProtocol

/// Completion candidates and argument hints for a partly typed line, from the command table
/// and the names the server gave.
public struct Completer: Sendable {
  public var names: CatalogNames
  /// Commands the client answers itself, offered alongside the server's.
  public var localCommands: [String]

  public init(names: CatalogNames, localCommands: [String] = LocalCommand.words) {
    self.names = names
    self.localCommands = localCommands
  }

  public struct Completion: Sendable, Equatable {
    /// The partial word before the cursor that candidates replace.
    public var partial: String
    public var candidates: [String]
  }

  /// The line so far split at spaces; the last element is the word being typed ("" after a
  /// space). Nil inside an open quote, where words cannot be told apart.
  static func words(_ line: String) -> [String]? {
    if line.filter({ $0 == "\"" }).count % 2 == 1 { return nil }
    var words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
    if line.isEmpty || line.last == " " { words.append("") }
    return words
  }

  public func complete(_ line: String) -> Completion {
    guard let words = Self.words(line), let partial = words.last else {
      return Completion(partial: "", candidates: [])
    }
    let pool = candidatePool(before: Array(words.dropLast()), partial: partial)
    return Completion(partial: partial, candidates: Self.matches(pool, partial: partial))
  }

  /// The words of `pool` that start with `partial`, ignoring case, one per spelling: an id
  /// and a display name differing only in case (`kiwi`, `Kiwi`) are one thing, so offering
  /// both would keep Tab from ever extending the word. The one kept is in the case typed.
  static func matches(_ pool: [String], partial: String) -> [String] {
    let lowered = partial.lowercased()
    var order: [String] = []
    var chosen: [String: String] = [:]
    for candidate in pool {
      let key = candidate.lowercased()
      guard key.hasPrefix(lowered) else { continue }
      guard let kept = chosen[key] else {
        chosen[key] = candidate
        order.append(key)
        continue
      }
      if !kept.hasPrefix(partial), candidate.hasPrefix(partial) { chosen[key] = candidate }
    }
    return order.compactMap { chosen[$0] }
  }

  /// `includeLocal` false where only a server command may go, as after `:watch SECONDS`.
  private func candidatePool(before: [String], partial: String, includeLocal: Bool = true) -> [String] {
    guard let first = before.first else {
      // HELP and QUIT are the client's when typed; where a server command must go they are not one.
      let commands =
        includeLocal
        ? CommandTable.commands.map(\.name) + localCommands
        : CommandTable.commands.map(\.name).filter { LocalCommand.parse($0) == nil }
      // Whoever types in lower case gets lower case back.
      let lower = partial.contains { $0.isLowercase }
      return commands.map { lower ? $0.lowercased() : $0 }
    }
    if first.hasPrefix(":") {
      return localPool(first.lowercased(), before: Array(before.dropFirst()), partial: partial)
    }
    guard var spec = CommandTable.command(named: first) else { return [] }
    var rest = before.dropFirst()
    if !spec.subcommands.isEmpty {
      guard let word = rest.first else {
        let lower = partial.contains { $0.isLowercase }
        return spec.subcommands.map { lower ? $0.name.lowercased() : $0.name }
      }
      guard let sub = spec.subcommand(named: word) else { return [] }
      spec = sub
      rest = rest.dropFirst()
    }
    if let equals = partial.firstIndex(of: "="), let key = optionKey(partial),
      let option = spec.option(named: key)
    {
      // An option's value: `role=st` completes to `role=staff`.
      return values(for: option.kind).map { partial[...equals] + $0 }
    }
    let position = ArgumentPosition(spec: spec, words: rest.filter { !isOption($0) })
    var pool: [String] = []
    let expected = position.candidates
    // Nothing is offered for a password: no candidate could be right, and a list of options
    // would invite typing one where the password goes.
    if expected.first?.kind == .password { return [] }
    for argument in expected { pool += values(for: argument.kind) }
    // While a required argument is missing, options would only crowd its candidates.
    let needsArgument = position.needsArgument
    if !partial.contains("="), !needsArgument {
      let given = Set(rest.compactMap { optionKey($0) })
      pool += spec.options.filter { !given.contains($0.key.rawValue) }.map(\.key.word)
    }
    return pool
  }

  /// A client command's arguments: a switch's `on` and `off`, `:connect`'s two schemes, and
  /// after `:watch SECONDS` a server command and its arguments, as at the start of a line.
  /// The seconds themselves, and the other commands' words, have nothing to offer.
  private func localPool(_ command: String, before: [String], partial: String) -> [String] {
    switch command {
    case ":watch":
      guard !before.isEmpty else { return [] }
      return candidatePool(before: Array(before.dropFirst()), partial: partial, includeLocal: false)
    case ":connect":
      return before.isEmpty ? ConnectionURL.Scheme.allCases.map { $0.rawValue + "://" } : []
    default:
      return before.isEmpty && LocalCommand.switches.contains(command) ? ["on", "off"] : []
    }
  }

  private func values(for kind: ArgumentKind) -> [String] {
    switch kind {
    case .item: return names.names { CatalogNames.itemKinds.contains($0) }
    case .anything: return names.names { _ in true }
    case .section: return names.names { $0 == "section" }
    // PRODUCT EDIT and DELETE take the id only, so product names are not offered there.
    case .productID: return names.entries.filter { $0.kind == "product" }.map(\.id)
    case .category: return names.categories
    case .diaryID: return names.diaryIDs
    // HELP's argument: a command, or a group as HELP @shop takes it (the REPL's own included).
    case .command: return CommandTable.commands.map(\.name) + HelpText.groups.map { "@" + $0 }
    case .role: return Role.accountRoles.map(\.rawValue)
    case .infoSection: return InfoSection.allCases.map(\.rawValue)
    case .password: return []
    default: return []
    }
  }

  private func isOption(_ word: String) -> Bool { optionKey(word) != nil }

  private func optionKey(_ word: String) -> String? {
    guard let equals = word.firstIndex(of: "="), !word.hasPrefix("\"") else { return nil }
    let key = word[..<equals]
    guard let head = key.first, head.isLetter || head == "_" else { return nil }
    return key.lowercased()
  }

  /// What is still to type after `line`, e.g. `<item> [n] [<item> [n] ...]` after `ORDER `;
  /// nil when nothing is missing or the command is unknown. In the middle of an argument the
  /// word being typed counts as given, so `ORDER 김치찌개 k` hints what comes after it
  /// rather than nothing.
  public func hint(_ line: String) -> String? {
    guard var words = Self.words(line), words.count >= 2 else { return nil }
    let typing = words.removeLast()
    if words[0].hasPrefix(":") {
      return localHint(words[0].lowercased(), given: Array(words.dropFirst()), typing: typing)
    }
    guard var spec = CommandTable.command(named: words[0]) else { return nil }
    var rest = words.dropFirst()
    if !spec.subcommands.isEmpty {
      // While the subcommand itself is being typed, the ones it can still become: one is
      // hinted with what it takes (`DIARY E` hints `EDIT <id> ...`), several by name.
      guard let word = rest.first else {
        if typing.isEmpty { return spec.argumentSynopsis }
        let matches = spec.subcommands.filter { $0.name.hasPrefix(typing.uppercased()) }
        guard let only = matches.first else { return nil }
        guard matches.count == 1 else { return matches.map(\.name).joined(separator: "|") }
        return ([only.name] + [hint(words[0] + " " + only.name + " ")].compactMap { $0 }).joined(separator: " ")
      }
      guard let sub = spec.subcommand(named: word) else { return nil }
      spec = sub
      rest = rest.dropFirst()
    }
    if !typing.isEmpty { rest.append(typing) }
    let positional = ArgumentPosition(spec: spec, words: rest.filter { !isOption($0) }).index
    let given = Set(rest.compactMap { optionKey($0) })
    var parts: [String] = []
    func show(_ argument: Argument) -> String {
      argument.isOptional ? "[\(argument.name)]" : "<\(argument.name)>"
    }
    if positional < spec.arguments.count {
      parts += spec.arguments[positional...].map(show)
    } else if spec.repeats, !spec.arguments.isEmpty {
      let start = positional % spec.arguments.count
      parts += spec.arguments[start...].map(show)
    }
    if spec.repeats, !spec.arguments.isEmpty {
      parts.append("[" + spec.arguments.map(show).joined(separator: " ") + " ...]")
    }
    for option in spec.options where !given.contains(option.key.rawValue) {
      let text = "\(option.key.word)<\(option.kind.rawValue)>"
      parts.append(option.isRequired ? text : "[\(text)]")
    }
    return parts.isEmpty ? nil : parts.joined(separator: " ")
  }

  /// A client command's arguments, from its `:help` usage while the first is still to come
  /// (`:json ` hints `[on|off]`); after `:watch SECONDS` what the server command takes.
  private func localHint(_ command: String, given: [String], typing: String) -> String? {
    if command == ":watch", !given.isEmpty {
      guard given.count > 1 || !typing.isEmpty else { return "COMMAND" }
      return hint((Array(given.dropFirst()) + [typing]).joined(separator: " "))
    }
    guard given.isEmpty, typing.isEmpty,
      let usage = LocalCommand.summaries.first(where: { $0.usage.hasPrefix(command + " ") })?.usage
    else { return nil }
    return String(usage.dropFirst(command.count + 1))
  }

  /// The longest start all candidates share, by characters and ignoring case (the server
  /// takes names in any case), spelled as the first candidate spells it.
  public static func commonPrefix(_ candidates: [String]) -> String {
    guard var prefix = candidates.first else { return "" }
    for candidate in candidates.dropFirst() {
      while !candidate.lowercased().hasPrefix(prefix.lowercased()) { prefix.removeLast() }
    }
    return prefix
  }
}

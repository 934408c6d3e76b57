import StockroomText

/// The part of the service a command belongs to. `HELP` lists the groups and `HELP @shop` one
/// group's commands; the server and the REPL both answer from this and the table, so they list
/// the same commands under the same names.
public enum CommandGroup: String, Sendable, CaseIterable, Hashable {
  case connection
  case account
  /// The juice bar and the side-dish shop share every command: browse, stock and order.
  case shop
  case market
  case diary
  case expo
  case live
  /// Staff and admin work: restocking, stocktakes, accounts.
  case admin

  public var summary: String {
    switch self {
    case .connection: "This connection: help, ping, the handshake, server facts, goodbye."
    case .account: "Who you are: log in and out, register, change your password."
    case .shop: "The juice bar and the side-dish shop: browse, stock levels and orders."
    case .market: "The open market: products users sell."
    case .diary: "Your own private diary."
    case .expo: "The Paris 1900 Exposition, read-only."
    case .live: "Stock changes as they happen."
    case .admin: "Staff and admin work: restocking, stocktakes and accounts."
    }
  }

  /// How HELP writes the group: `@shop`.
  public var label: String { "@" + rawValue }

  /// The group's commands, in table order.
  public var commands: [CommandSpec] { CommandTable.commands.filter { $0.group == self } }

  /// The group `word` names: `@shop`, in any case.
  public static func named(_ word: String) throws(ProtocolError) -> CommandGroup {
    if word.hasPrefix("@"), let group = CommandGroup(rawValue: word.dropFirst().lowercased()) { return group }
    throw unknown(word, among: allCases.map(\.rawValue))
  }

  /// The error for a group no one has: a guess when one is close, then every group, since
  /// someone asking for a group by name is looking for that list. The REPL passes its own
  /// extra group too, so both say the same thing.
  public static func unknown(_ word: String, among names: [String]) -> ProtocolError {
    var message = "unknown group \(Echo.quoted(word))"
    let typed = word.hasPrefix("@") ? String(word.dropFirst()) : word
    message += NameSuggestion.didYouMean(typed, among: names, prefix: "@")
    message += (message.hasSuffix("?") ? " " : "; ") + "groups: " + names.map { "@" + $0 }.joined(separator: " ")
    return ProtocolError(.unknown, message)
  }
}

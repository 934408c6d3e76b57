import Foundation
import StockroomText

/// The shop's accounts and the rules that keep them sound: names unique, roles an account may
/// hold, at least one admin kept once there is one.
///
/// A part of `ShopState` of its own; whether a name holds someone's data (which only an admin
/// may then claim) is the shop's to say, so `create` is told.
public struct AccountBook: Sendable {
  private let limits: ShopLimits
  public private(set) var accounts: [String: Account] = [:]
  /// Which account each look (`LookalikeKey`) belongs to, so that a new name that looks like one
  /// is refused, and how many accounts share it (those made before the rule may).
  private var lookalikes: [LookalikeKey: (name: String, count: Int)] = [:]

  init(limits: ShopLimits) {
    self.limits = limits
  }

  mutating func restore(_ saved: [Account]) {
    for account in saved {
      accounts[account.name] = account
      addLooks(of: account.name)
    }
  }

  private mutating func addLooks(of name: String) {
    for look in LookalikeKey.looks(of: name) ?? [] {
      let holder = lookalikes[look]
      lookalikes[look] = (holder?.name ?? name, (holder?.count ?? 0) + 1)
    }
  }

  /// The existing account whose name looks like `name` (another name: the same one is taken,
  /// not alike), if any.
  public func lookalike(of name: String) -> String? {
    for probe in LookalikeKey.probes(of: name) ?? [] {
      if let other = lookalikes[probe]?.name, other != name { return other }
    }
    return nil
  }

  /// REGISTER or USER ADD of a name that looks like `existing`'s.
  public static func looksTaken(_ name: String, like existing: String) -> ShopError {
    ShopError(
      .exists,
      "the name \(Echo.quoted(name)) looks like the existing account \(Echo.quoted(existing)) (Unicode UTS #39 confusables, in any case); choose another"
    )
  }

  /// REGISTER of a name that looks like an existing account's, which is not named: anyone may
  /// register, and naming it would tell them which accounts exist (docs/security.md).
  public static func looksTaken(_ name: String) -> ShopError {
    ShopError(
      .exists,
      "the name \(Echo.quoted(name)) looks like an existing account's (Unicode UTS #39 confusables, in any case); choose another"
    )
  }

  public var adminCount: Int { accounts.values.count { $0.role == .admin } }

  /// Adds `account`; `unclaimedData` says the name holds diary entries or products of an
  /// earlier owner, which a self-registration may not take over.
  mutating func create(_ account: Account, selfRegistered: Bool, unclaimedData: Bool) throws(ShopError) {
    guard accounts[account.name] == nil else { throw ShopError.nameTaken(account.name) }
    if let existing = lookalike(of: account.name) {
      throw selfRegistered ? Self.looksTaken(account.name) : Self.looksTaken(account.name, like: existing)
    }
    guard account.role != .guest else { throw ShopError(.invalid, "an account's role is customer, staff or admin") }
    if selfRegistered && unclaimedData {
      throw ShopError(
        .denied,
        "the name \(Echo.quoted(account.name)) holds diary entries or products of an earlier owner; an admin must create it"
      )
    }
    guard accounts.count < limits.maximumAccounts else {
      throw ShopError(.limit, "the shop holds at most \(limits.maximumAccounts) accounts")
    }
    accounts[account.name] = account
    addLooks(of: account.name)
  }

  private func account(_ name: String) throws(ShopError) -> Account {
    guard let account = accounts[name] else { throw ShopError(.notFound, "no account named \(Echo.quoted(name))") }
    return account
  }

  /// A shop with admins keeps at least one, or no one could manage accounts again online.
  private func keepsAnAdmin(without name: String) throws(ShopError) {
    guard accounts[name]?.role == .admin, adminCount == 1 else { return }
    throw ShopError(.invalid, "\(Echo.quoted(name)) is the last admin; make another admin first")
  }

  mutating func delete(_ name: String) throws(ShopError) {
    _ = try account(name)
    try keepsAnAdmin(without: name)
    accounts[name] = nil
    for look in LookalikeKey.looks(of: name) ?? [] {
      guard let holder = lookalikes[look] else { continue }
      guard holder.count > 1 else {
        lookalikes[look] = nil
        continue
      }
      // Another account shares the look (made before the rule): it takes the look over.
      let heir =
        holder.name == name
        ? accounts.keys.sorted().first { LookalikeKey.looks(of: $0)?.contains(look) == true } ?? holder.name
        : holder.name
      lookalikes[look] = (heir, holder.count - 1)
    }
  }

  mutating func setRole(_ name: String, _ role: Role, at: Date) throws(ShopError) -> Account {
    var changed = try account(name)
    guard role != .guest else { throw ShopError(.invalid, "an account's role is customer, staff or admin") }
    if role != .admin { try keepsAnAdmin(without: name) }
    changed.role = role
    changed.updated = at
    accounts[name] = changed
    return changed
  }

  mutating func setPassword(_ name: String, _ hash: String, at: Date) throws(ShopError) -> Account {
    var changed = try account(name)
    changed.passwordHash = hash
    changed.updated = at
    accounts[name] = changed
    return changed
  }
}

import Foundation
import StockroomText

/// A person who can log in: a name, a role and the Argon2id hash of their password.
///
/// The hash is an opaque PHC string (`$argon2id$v=19$m=...`) made and checked outside the
/// shop's rules; `description` leaves it out, so an account printed anywhere shows no secret.
public struct Account: Sendable, Hashable, Codable, CustomStringConvertible {
  public var name: String
  public var role: Role
  public var passwordHash: String
  public var created: Date
  public var updated: Date

  public init(name: String, role: Role, passwordHash: String, created: Date, updated: Date) {
    self.name = name
    self.role = role
    self.passwordHash = passwordHash
    self.created = created
    self.updated = updated
  }

  public var description: String { "Account(\(name), role=\(role.rawValue))" }

  /// The name `raw` stands for as an account's name: NFC-normalized by the user-name rules, and
  /// not `guest` in any case, which names everyone who has not logged in.
  public static func name(_ raw: String) throws(ShopError) -> String {
    let name = try TextRules.userName(raw)
    guard name.lowercased() != Role.guest.rawValue else {
      throw ShopError(.invalid, "the name guest is reserved for people who have not logged in; choose another")
    }
    return name
  }

  /// The name `raw` stands for as a new account's name: as `name(_:)`, and also keeping to one
  /// script as UTS #39's highly restrictive level means it, so that a new name cannot pass for
  /// another by mixing look-alike letters of two scripts. Existing accounts keep the names they
  /// have: this is asked only when one is made. (Looking like another account's name as a whole
  /// is the account book's to refuse: see `LookalikeKey`.)
  public static func newName(_ raw: String) throws(ShopError) -> String {
    let name = try name(raw)
    guard let single = LookalikeKey.keepsToOneScript(name) else {
      throw ShopError(.invalid, "the scripts of this user name cannot be checked; choose another")
    }
    guard single else {
      throw ShopError(
        .invalid,
        "a user name may not mix scripts (Latin with Cyrillic or Greek, say): one script, or Latin with Han, kana or Hangul (Unicode UTS #39, highly restrictive)"
      )
    }
    return name
  }
}

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
}

import StockroomProtocol
import StockroomText

/// Logging engine clients in, as `LineClient` logs in a socket's: every test account's password
/// is `TestAccounts.password(for:)`, and every harness has an admin (`admin`), who makes
/// accounts with more than a customer's role.
extension EngineClient {
  static func password(for user: String) -> String { TestAccounts.password(for: user) }

  /// Logs in as `user`, making the account first if it does not exist yet: by REGISTER for a
  /// customer, by the admin's USER ADD for anything more.
  func logIn(_ user: String, role: Role = .customer) throws {
    let password = Quoting.quote(Self.password(for: user))
    if role > .customer {
      try expectOK("LOGIN admin \(Quoting.quote(Self.password(for: "admin")))")
      let existing = try request("USER LIST size=100").rows.first { $0.id == user }
      if existing == nil {
        try expectOK("USER ADD \(Quoting.quote(user)) \(password) role=\(role.rawValue)")
      } else if existing?["role"] != role.rawValue {
        try expectOK("USER ROLE \(Quoting.quote(user)) \(role.rawValue)")
      }
    } else {
      let registered = try request("REGISTER \(Quoting.quote(user)) \(password)")
      if registered.isOK { return }
      guard registered.errorCode == .exists else {
        throw Failure(description: "REGISTER \(user): \(registered.lines)")
      }
    }
    try expectOK("LOGIN \(Quoting.quote(user)) \(password)")
  }

  /// LOGIN as `user`, whose account exists.
  func logInExisting(_ user: String) throws {
    try expectOK("LOGIN \(Quoting.quote(user)) \(Quoting.quote(Self.password(for: user)))")
  }

  private func expectOK(_ line: String) throws {
    let reply = try request(line)
    guard reply.isOK else { throw Failure(description: "\(line.split(separator: " ").first ?? ""): \(reply.lines)") }
  }
}

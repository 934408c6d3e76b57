import StockroomProtocol
import StockroomText

/// Logging test clients in, over a socket or an engine's channel alike: every test account's
/// password is `TestAccounts.password(for:)`, and every server and harness has an admin
/// (`admin`), who makes accounts with more than a customer's role.
extension LineProtocolClient {
  package static func password(for user: String) -> String { TestAccounts.password(for: user) }

  /// Logs in as `user`, making the account first if it does not exist yet: by REGISTER for a
  /// customer, by the admin's USER ADD for anything more.
  package func logIn(_ user: String, role: Role = .customer) throws {
    let password = Quoting.quote(Self.password(for: user))
    if role > .customer {
      try expectOK("LOGIN admin \(Quoting.quote(Self.password(for: "admin")))")
      // Looked up first, so a shop that refuses writes can still be logged into.
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
        throw ClientFailure(description: "REGISTER \(user): \(registered.lines)")
      }
    }
    try expectOK("LOGIN \(Quoting.quote(user)) \(password)")
  }

  /// LOGIN as `user`, whose account exists.
  package func logInExisting(_ user: String) throws {
    try expectOK("LOGIN \(Quoting.quote(user)) \(Quoting.quote(Self.password(for: user)))")
  }

  private func expectOK(_ line: String) throws {
    let reply = try request(line)
    guard reply.isOK else {
      throw ClientFailure(description: "\(line.split(separator: " ").first ?? ""): \(reply.lines)")
    }
  }
}

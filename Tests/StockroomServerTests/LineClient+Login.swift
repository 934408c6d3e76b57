import StockroomProtocol

/// Logging test clients in. Every test account's password is derived from its name, and every
/// test server has an admin (`admin`), who makes accounts with more than a customer's role.
extension LineClient {
  static func password(for user: String) -> String { "pw-\(user)-stockroom" }

  /// A connection past the greeting, logged in as `user` when given (made first if missing).
  static func greeted(_ port: UInt16, user: String? = nil, role: Role = .customer) throws -> LineClient {
    let client = try LineClient(port: port)
    _ = try client.readReply()
    if let user { try client.logIn(user, role: role) }
    return client
  }

  /// Logs in as `user`, making the account first if it does not exist yet: by REGISTER for a
  /// customer, by the admin's USER ADD for anything more.
  func logIn(_ user: String, role: Role = .customer) throws {
    let password = Quoting.quote(Self.password(for: user))
    if role > .customer {
      try expectOK("LOGIN admin \(Quoting.quote(Self.password(for: "admin")))")
      let added = try request("USER ADD \(Quoting.quote(user)) \(password) role=\(role.rawValue)")
      if added.errorCode == .exists {
        try expectOK("USER ROLE \(Quoting.quote(user)) \(role.rawValue)")
      } else if !added.isOK {
        throw Failure(description: "USER ADD \(user): \(added.lines)")
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

  private func expectOK(_ line: String) throws {
    let reply = try request(line)
    guard reply.isOK else { throw Failure(description: "\(line.split(separator: " ").first ?? ""): \(reply.lines)") }
  }
}

import StockroomText

@testable import StockroomEngineHarness

/// Where a test's clients come from: a real server over loopback TCP (`TestServer`), or the
/// engine alone (`EngineHarness`). A command test written against this runs on either.
protocol ShopEndpoint: Sendable {
  /// A connection, not yet greeted.
  func connect() throws -> LineClient
  /// Makes `name`'s account with `role` unless it exists; its password is `LineClient.password(for:)`.
  func account(_ name: String, role: Role) throws
}

extension ShopEndpoint {
  /// A connection, past the greeting unless `greeted` is false, logged in as `user` when given
  /// (the account is made first if missing).
  func client(greeted: Bool = true, as user: String? = nil, role: Role = .customer) throws -> LineClient {
    let client = try connect()
    if greeted { _ = try client.readReply() }
    if let user {
      try account(user, role: role)
      try client.logInExisting(user)
    }
    return client
  }
}

extension TestServer: ShopEndpoint {}
extension EngineHarness: ShopEndpoint {}

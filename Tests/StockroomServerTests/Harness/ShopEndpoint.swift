import StockroomText

/// Where a test's clients come from: a real server over loopback TCP (`TestServer`), or the
/// engine alone (`EngineHarness`). A command test written against this runs on either.
protocol ShopEndpoint: Sendable {
  func client(greeted: Bool, as user: String?, role: Role) throws -> LineClient
  func account(_ name: String, role: Role) throws
}

extension ShopEndpoint {
  func client(greeted: Bool = true, as user: String? = nil, role: Role = .customer) throws -> LineClient {
    try client(greeted: greeted, as: user, role: role)
  }
}

extension TestServer: ShopEndpoint {}
extension EngineHarness: ShopEndpoint {}

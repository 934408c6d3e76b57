import Foundation
import StockroomDomain
import StockroomProtocol
import StockroomServer

/// A real server on a kernel-chosen loopback port, in this process.
final class TestServer: Sendable {
  let server: Server
  let port: UInt16

  static let catalogPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Sources/StockroomServer/Resources/catalog.json").path

  init(initialStock: Int? = nil, configure: (inout ServerConfiguration) -> Void = { _ in }) throws {
    var configuration = ServerConfiguration()
    configuration.port = 0
    configuration.logging = false
    configure(&configuration)
    let catalog = try CatalogSource.load(path: TestServer.catalogPath, initialStock: initialStock)
    server = Server(configuration: configuration, catalog: catalog, logger: Logger(isEnabled: false))
    try server.addAccount(name: "admin", password: LineClient.password(for: "admin"), role: .admin)
    port = try server.start()
  }

  /// A connection, past the greeting unless `greeted` is false, logged in as `user` when given
  /// (the account is made first if missing; see `LineClient.logIn`).
  func client(greeted: Bool = true, as user: String? = nil, role: Role = .customer) throws -> LineClient {
    let client = try LineClient(port: port)
    if greeted { _ = try client.readReply() }
    if let user { try client.logIn(user, role: role) }
    return client
  }

  deinit {
    server.stop()
  }
}

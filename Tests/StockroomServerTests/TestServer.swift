import Foundation
import StockroomDomain
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
    port = try server.start()
  }

  func client(greeted: Bool = true) throws -> LineClient {
    let client = try LineClient(port: port)
    if greeted { _ = try client.readReply() }
    return client
  }

  deinit {
    server.stop()
  }
}

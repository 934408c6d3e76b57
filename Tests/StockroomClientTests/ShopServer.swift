import Foundation
import StockroomDomain
import StockroomServer

/// A real server on a kernel-chosen loopback port, in this process, for clients to talk to.
final class ShopServer: Sendable {
  let server: Server
  let port: UInt16

  static let catalogPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources/StockroomServer/Resources/catalog.json").path

  /// Port 0 lets the kernel choose; a test that restarts a server passes the old port. A short
  /// idle timeout lets a test see the server close a quiet connection.
  init(port requested: UInt16 = 0, idleTimeout: Int = 600) throws {
    var configuration = ServerConfiguration()
    configuration.port = requested
    configuration.idleTimeout = idleTimeout
    configuration.logging = false
    let catalog = try CatalogSource.load(path: ShopServer.catalogPath, initialStock: nil)
    server = Server(configuration: configuration, catalog: catalog, logger: Logger(isEnabled: false))
    port = try server.start()
  }

  deinit {
    server.stop()
  }
}

import Foundation
import StockroomDomain
import StockroomServer
import StockroomText

/// A real server on a kernel-chosen loopback port, in this process, for clients to talk to.
final class ShopServer: Sendable {
  let server: Server
  let port: UInt16

  static let catalogPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources/StockroomServer/Resources/catalog.json").path

  /// Port 0 lets the kernel choose; a test that restarts a server passes the old port. A short
  /// idle timeout lets a test see the server close a quiet connection. `accounts` exist before
  /// the port opens: a REPL retrying in the background may connect the moment it does, and
  /// must find its account there (made after start, a slow password hash left it a window).
  init(port requested: UInt16 = 0, idleTimeout: Int = 600, accounts: [(name: String, role: Role)] = []) throws {
    var configuration = ServerConfiguration()
    configuration.port = requested
    configuration.idleTimeout = idleTimeout
    configuration.logging = false
    let catalog = try CatalogSource.load(path: ShopServer.catalogPath, initialStock: nil)
    server = Server(configuration: configuration, catalog: catalog, logger: Logger(isEnabled: false))
    for account in accounts {
      try server.addAccount(name: account.name, password: ShopServer.password, role: account.role)
    }
    port = try server.start()
  }

  deinit {
    server.stop()
  }
}

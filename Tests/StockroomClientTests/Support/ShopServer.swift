import Foundation
import StockroomDomain
import StockroomLogging
import StockroomProtocol
import StockroomServer
import StockroomStorage
import StockroomTestSupport
import StockroomText
import StockroomTransport

/// A real server on a kernel-chosen loopback port, in this process, for clients to talk to;
/// with `tls`, also on a TLS port with that certificate.
final class ShopServer: Sendable {
  let server: Server
  let port: UInt16
  /// The TLS port, when started with TLS settings.
  let tlsPort: UInt16?

  /// Found from the package root, the first folder up from this file with a Package.swift,
  /// so that moving this file between test folders does not lose the catalogue.
  static let catalogPath: String = {
    var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path),
      folder.path != "/"
    {
      folder = folder.deletingLastPathComponent()
    }
    return folder.appendingPathComponent("Sources/StockroomStorage/Resources/catalog.json").path
  }()

  /// Port 0 lets the kernel choose; a test that restarts a server passes the old port. A short
  /// idle timeout lets a test see the server close a quiet connection. `accounts` (with
  /// `password`) exist before the port opens: a client retrying in the background may log in
  /// the moment it does.
  init(
    port requested: UInt16 = 0, idleTimeout: Int = 600, accounts: [String: Role] = [:], tls: TLSSettings? = nil
  ) throws {
    var configuration = ServerConfiguration()
    configuration.io = requestedIOBackend(as: IOBackend.self)
    configuration.passwordCost = .least
    configuration.tls = tls
    configuration.port = requested
    configuration.idleTimeout = idleTimeout
    configuration.logging = false
    let catalog = try CatalogSource.load(path: ShopServer.catalogPath, initialStock: nil)
    server = Server(configuration: configuration, catalog: catalog, logger: Logger(isEnabled: false))
    for (name, role) in accounts.sorted(by: { $0.key < $1.key }) {
      try server.addAccount(name: name, password: ShopServer.password, role: role)
    }
    port = try server.start()
    tlsPort = server.tlsPort
  }

  deinit {
    server.stop()
  }
}

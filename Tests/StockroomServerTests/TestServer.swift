import Foundation
import StockroomDomain
import StockroomLogging
import StockroomProtocol
import StockroomServer
import StockroomStorage
import StockroomTLS
import StockroomTestSupport
import StockroomTransport
import Synchronization

@testable import StockroomEngineHarness

/// A real server on a kernel-chosen loopback port, in this process; with the TLS transport, on a
/// TLS port as well, which its `client`s then use.
final class TestServer: Sendable {
  let server: Server
  let port: UInt16
  let transport: TestTransport
  /// The TLS port, when the transport is TLS.
  let tlsPort: UInt16?
  private let tlsClient: TLSContext?
  /// The accounts made on this server so far, with their roles.
  private let accounts = Mutex<[String: Role]>([:])

  static let catalogPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Sources/StockroomStorage/Resources/catalog.json").path

  init(
    initialStock: Int? = nil, transport: TestTransport = .plain, logger: Logger = Logger(isEnabled: false),
    configure: (inout ServerConfiguration) -> Void = { _ in }
  ) throws {
    var configuration = ServerConfiguration()
    configuration.io = requestedIOBackend(as: IOBackend.self)
    configuration.port = 0
    configuration.logging = false
    configuration.passwordCost = .least
    if transport == .tls { configuration.tls = try TestTransport.serverSettings() }
    configure(&configuration)
    let catalog = try CatalogSource.load(path: TestServer.catalogPath, initialStock: initialStock)
    server = Server(configuration: configuration, catalog: catalog, logger: logger)
    port = try server.start()
    self.transport = transport
    tlsPort = server.tlsPort
    tlsClient = transport == .tls ? try TestTransport.clientContext() : nil
    try account("admin", role: .admin)
  }

  /// A connection to the transport's port, not yet greeted.
  func connect() throws -> LineClient {
    guard let tlsClient, let tlsPort else { return try LineClient(port: port) }
    return try LineClient(port: tlsPort, tls: tlsClient)
  }

  /// Makes `name`'s account with `role` unless it exists; its password is `LineClient.password(for:)`.
  func account(_ name: String, role: Role) throws {
    let known = accounts.withLock { $0[name] }
    if let known {
      guard known == role else { throw LineClient.Failure(description: "\(name) is \(known), not \(role)") }
      return
    }
    try server.addAccount(name: name, passwordHash: try TestAccounts.hash(for: name), role: role)
    accounts.withLock { $0[name] = role }
  }

  deinit {
    server.stop()
  }
}

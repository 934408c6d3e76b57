import Foundation
import StockroomDomain
import StockroomEngine
import StockroomLogging
import StockroomProtocol
import StockroomSecurity
import StockroomServer
import StockroomStorage
import StockroomSystem
import StockroomTransport
import Synchronization

/// The engine with nothing around it: a shop in memory, the real command handlers, password
/// and history pools, and connections that are `EmbeddedChannel`s instead of sockets. Shaped
/// like `TestServer` (`client`, `account`), so a command test moves here by changing which it
/// makes; tests of sockets, TLS, limits on real connections and processes stay on `TestServer`.
final class EngineHarness: Sendable {
  let store: Store
  let handler: CommandHandler
  let limits: ConnectionLimits
  var stats: ServerStats { handler.stats }
  private let nextID = Atomic<Int>(1)
  /// Channels open now, for INFO's and WHO's client counts.
  let openChannels = ChannelCount()
  private let accounts = Mutex<[String: Role]>([:])

  init(initialStock: Int? = nil, configure: (inout ServerConfiguration) -> Void = { _ in }) throws {
    var configuration = ServerConfiguration()
    configuration.dataDirectory = nil
    configure(&configuration)
    let catalog = try CatalogSource.load(path: TestServer.catalogPath, initialStock: initialStock)
    store = Store(ShopState(catalog: catalog, limits: .inMemory))
    let throttle = LoginThrottle()
    let stats = ServerStats()
    handler = CommandHandler(
      store: store, stats: stats, settings: EngineSettings(configuration),
      clientCount: { [openChannels] in openChannels.value }, logger: Logger(isEnabled: false),
      credentials: .credentials(throttle: throttle), history: .history(), throttle: throttle, presence: Presence())
    limits = ConnectionLimits(configuration)
    try account("admin", role: .admin)
  }

  deinit {
    handler.credentials.shutdown()
    handler.history.shutdown()
  }

  /// A connection, not yet greeted.
  func connect() -> LineClient { connect(from: nil) }

  /// A connection, not yet greeted, that stands for coming from `host`
  /// (127.0.0.x for other hosts, as the socket tests bind them), for the per-address rules.
  func connect(from host: String?) -> LineClient {
    let source = host.flatMap { SocketAddress(host: $0, port: 1) }.map(PeerSource.init)
    return LineClient(
      embedded: EmbeddedChannel(engine: self, id: nextID.add(1, ordering: .relaxed).oldValue, source: source))
  }

  /// Makes `name`'s account with `role` unless it exists; its password is `LineClient.password(for:)`.
  func account(_ name: String, role: Role) throws {
    if let known = accounts.withLock({ $0[name] }) {
      guard known == role else { throw LineClient.Failure(description: "\(name) is \(known), not \(role)") }
      return
    }
    try store.addAccount(name: name, passwordHash: try TestAccounts.hash(for: name), role: role)
    accounts.withLock { $0[name] = role }
  }
}

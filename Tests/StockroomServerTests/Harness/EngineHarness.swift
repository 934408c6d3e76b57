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
  /// The engine's time: it moves only when the test says (`advance`).
  let clock = ManualClock()
  /// The engine's threads, started as the server starts them (the engine starts none itself).
  let starter = NamedThreadStarter()
  private let nextID = Atomic<Int>(1)
  /// Channels open now, for INFO's and WHO's client counts.
  let openChannels = ChannelCount()
  private let accounts = Mutex<[String: Role]>([:])

  /// The engine on the store `configure` names (`dataDirectory`, or `store` for PostgreSQL),
  /// opened as the server opens it; in memory when it names none.
  /// `logger` hears what the store and the handlers log (a `LogCapture`'s, to check it).
  /// With `changes`, the shop is in memory and its changes take the path `changes` makes for it
  /// (a `HeldChanges`, to hold commits until the test lets them go).
  init(
    initialStock: Int? = nil, catalogPath: String = TestServer.catalogPath, logger: Logger = Logger(isEnabled: false),
    configure: (inout ServerConfiguration) -> Void = { _ in }, changes: ((LockedShop) -> any ChangePath)? = nil
  ) throws {
    var configuration = ServerConfiguration()
    configuration.dataDirectory = nil
    configure(&configuration)
    let catalog = try CatalogSource.load(path: catalogPath, initialStock: initialStock)
    if let changes {
      let shop = LockedShop(ShopState(catalog: catalog, limits: .inMemory))
      store = Store(shop: shop, changes: changes(shop), starter: starter)
    } else {
      store = try Self.open(configuration, catalog: catalog, logger: logger, starter: starter)
    }
    let throttle = LoginThrottle()
    let stats = ServerStats()
    handler = CommandHandler(
      store: store, stats: stats, settings: EngineSettings(configuration),
      clientCount: { [openChannels] in openChannels.value }, logger: logger,
      credentials: .credentials(throttle: throttle, clock: clock, starter: starter),
      history: .history(starter: starter), throttle: throttle, presence: Presence(), clock: clock)
    limits = ConnectionLimits(configuration)
    try account("admin", role: .admin)
  }

  /// Opens the store as the server does. A test that restarts the engine opens a file the last
  /// harness has just let go; the directory's locks are waited for first (see
  /// `DataDirectory.waitUntilUnlocked`).
  private static func open(
    _ configuration: ServerConfiguration, catalog: Catalog, logger: Logger, starter: any ThreadStarter
  ) throws -> Store {
    if let directory = configuration.dataDirectory { DataDirectory.waitUntilUnlocked(directory) }
    return try StoreOpening.open(
      configuration: configuration, catalog: catalog, catalogText: "{}", logger: logger, starter: starter)
  }

  /// The engine on `data`'s store, its SQLite file or its PostgreSQL database, as `stockroomd`
  /// started on it opens it. A harness made again on the same directory once the last one and
  /// its clients are gone is a restart.
  convenience init(
    data: DataDirectory, initialStock: Int? = nil, catalogPath: String = TestServer.catalogPath,
    logger: Logger = Logger(isEnabled: false), configure: (inout ServerConfiguration) -> Void = { _ in }
  ) throws {
    let url = data.store == .postgresql ? try data.postgresURL() : nil
    try self.init(initialStock: initialStock, catalogPath: catalogPath, logger: logger) { configuration in
      if let url { configuration.store = url } else { configuration.dataDirectory = data.path }
      configure(&configuration)
    }
  }

  /// Writes what the committer holds and lets the store's file go, as a server's stop does, so
  /// another harness (a restart) can open it.
  deinit {
    store.stopWriting()
    handler.credentials.shutdown()
    handler.history.shutdown()
  }

  /// Moves the engine's clock on by `duration`: what the throttle held for that long goes on.
  func advance(by duration: Duration) { clock.advance(by: duration) }

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
    // An account a data directory was given offline (`DataDirectory.addAccount`) is already there.
    if let stored = store.read({ $0.accounts[name]?.role }) {
      guard stored == role else { throw LineClient.Failure(description: "\(name) is \(stored), not \(role)") }
    } else {
      try store.addAccount(name: name, passwordHash: try TestAccounts.hash(for: name), role: role)
    }
    accounts.withLock { $0[name] = role }
  }
}

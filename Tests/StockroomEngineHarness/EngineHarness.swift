import Foundation
import StockroomDomain
import StockroomEngine
import StockroomLogging
import StockroomProtocol
import StockroomSecurity
import StockroomSystem
import StockroomText
import Synchronization

/// The engine with nothing around it: a shop, the real command handlers, password and history
/// pools, and connections that are `EmbeddedChannel`s instead of sockets. This target links no
/// socket layer and no storage driver, so the engine's own tests (`StockroomEngineTests`) run
/// on it without either; the server's tests open it on a real store (a SQLite file, a PostgreSQL
/// database) through an initializer of their own, which hands this one the shop it opened.
final class EngineHarness: Sendable {
  let shop: Shop
  let handler: CommandHandler
  let limits: ConnectionLimits
  var stats: ServerStats { handler.stats }
  /// The engine's time: it moves only when the test says (`advance`).
  let clock = ManualClock()
  /// The engine's threads, started as the server starts them (the engine starts none itself).
  let starter = HarnessThreadStarter()
  private let nextID = Atomic<Int>(1)
  /// Channels open now, for INFO's and WHO's client counts.
  let openChannels = ChannelCount()
  private let accounts = Mutex<[String: Role]>([:])

  /// The catalogue the server ships, read from the checkout.
  static let catalogPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Sources/StockroomStorage/Resources/catalog.json").path

  /// The engine on the shop `open` makes with the harness's threads, with the handlers'
  /// `settings` and each connection's `limits`. `logger` hears what the handlers log.
  init(
    settings: EngineSettings, limits: ConnectionLimits, logger: Logger,
    open: (_ starter: any ThreadStarter) throws -> Shop
  ) throws {
    shop = try open(starter)
    let throttle = LoginThrottle()
    let stats = ServerStats()
    handler = CommandHandler(
      shop: shop, stats: stats, settings: settings,
      clientCount: { [openChannels] in openChannels.value }, logger: logger,
      credentials: .credentials(throttle: throttle, clock: clock, starter: starter),
      history: .history(starter: starter), throttle: throttle, presence: Presence(), clock: clock)
    self.limits = limits
    try account("admin", role: .admin)
  }

  /// The catalogue at `path`, every item's stock set to `initialStock` when given. Read here
  /// rather than by the storage layer's `CatalogSource`, which this target does not link.
  static func catalog(path: String = catalogPath, initialStock: Int? = nil) throws -> Catalog {
    let catalog = try Catalog.decode(from: Data(contentsOf: URL(fileURLWithPath: path)))
    return initialStock.map(catalog.withInitialStock) ?? catalog
  }

  /// A shop in memory on `catalog`; with `changes`, its changes take the path `changes` makes
  /// for it (a `HeldChanges`, to hold commits until the test lets them go).
  static func memoryShop(
    _ catalog: Catalog, changes: ((LockedShop) -> any ChangePath)?, starter: any ThreadStarter
  ) -> Shop {
    guard let changes else { return Shop(ShopState(catalog: catalog, limits: .inMemory), starter: starter) }
    let shop = LockedShop(ShopState(catalog: catalog, limits: .inMemory))
    return Shop(locked: shop, changes: changes(shop), starter: starter)
  }

  /// Writes what the committer holds and lets the store's file go, as a server's stop does, so
  /// another harness (a restart) can open it.
  deinit {
    shop.stopWriting()
    handler.credentials.shutdown()
    handler.history.shutdown()
  }

  /// Moves the engine's clock on by `duration`: what the throttle held for that long goes on.
  func advance(by duration: Duration) { clock.advance(by: duration) }

  /// A connection, not yet greeted, that stands for coming from IPv4 address `host` when given
  /// (127.0.0.x for other hosts, as the socket tests bind them), for the per-address rules: its
  /// four bytes, as the transport makes a `PeerSource` of an IPv4 peer.
  func channel(from host: String? = nil) -> EmbeddedChannel {
    let source = host.map { PeerSource(bytes: $0.split(separator: ".").compactMap { UInt8($0) }) }
    return EmbeddedChannel(engine: self, id: nextID.add(1, ordering: .relaxed).oldValue, source: source)
  }

  /// Makes `name`'s account with `role` unless it exists; its password is
  /// `TestAccounts.password(for:)`.
  func account(_ name: String, role: Role) throws {
    if let known = accounts.withLock({ $0[name] }) {
      guard known == role else { throw EngineClient.Failure(description: "\(name) is \(known), not \(role)") }
      return
    }
    // An account a data directory was given offline (`DataDirectory.addAccount`) is already there.
    if let stored = shop.read({ $0.accounts[name]?.role }) {
      guard stored == role else { throw EngineClient.Failure(description: "\(name) is \(stored), not \(role)") }
    } else {
      try shop.addAccount(name: name, passwordHash: try TestAccounts.hash(for: name), role: role)
    }
    accounts.withLock { $0[name] = role }
  }
}

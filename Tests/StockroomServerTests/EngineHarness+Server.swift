import StockroomDomain
import StockroomEngine
import StockroomLogging
import StockroomServer
import StockroomStorage

@testable import StockroomEngineHarness

/// The engine harness as the server's tests open it: on the store a `ServerConfiguration`
/// names (a SQLite file, a PostgreSQL database, or memory), opened as `stockroomd` opens it,
/// with connections that are `LineClient`s, so a command test runs on a socket or without one
/// (`ShopEndpoint`). The engine's own tests need none of this (`StockroomEngineTests`).
extension EngineHarness {
  /// The engine on the store `configure` names (`dataDirectory`, or `store` for PostgreSQL),
  /// opened as the server opens it; in memory when it names none.
  /// `logger` hears what the shop and the handlers log (a `LogCapture`'s, to check it).
  /// With `changes`, the shop is in memory and its changes take the path `changes` makes for it.
  convenience init(
    initialStock: Int? = nil, catalogPath: String = TestServer.catalogPath, logger: Logger = Logger(isEnabled: false),
    configure: (inout ServerConfiguration) -> Void = { _ in }, changes: ((LockedShop) -> any ChangePath)? = nil
  ) throws {
    var configuration = ServerConfiguration()
    configuration.dataDirectory = nil
    configuration.passwordCost = .least
    configure(&configuration)
    let catalog = try CatalogSource.load(path: catalogPath, initialStock: initialStock)
    try self.init(
      settings: EngineSettings(configuration), limits: ConnectionLimits(configuration), logger: logger
    ) { starter in
      if changes != nil { return Self.memoryShop(catalog, changes: changes, starter: starter) }
      // A test that restarts the engine opens a file the last harness has just let go; the
      // directory's locks are waited for first (see `DataDirectory.waitUntilUnlocked`).
      if let directory = configuration.dataDirectory { DataDirectory.waitUntilUnlocked(directory) }
      return try StoreOpening.open(
        configuration: configuration, catalog: catalog, catalogText: "{}", logger: logger, starter: starter)
    }
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

  /// A connection, not yet greeted.
  func connect() -> LineClient { connect(from: nil) }

  /// A connection, not yet greeted, that stands for coming from `host`
  /// (127.0.0.x for other hosts, as the socket tests bind them), for the per-address rules.
  func connect(from host: String?) -> LineClient { LineClient(embedded: channel(from: host)) }
}

import Foundation
import StockroomDomain
import StockroomEngine
import StockroomLogging
import StockroomPersistence
import StockroomStorage

/// Opens the store a configuration names, the PostgreSQL store at `store` or the SQLite file in
/// `dataDirectory` (loaded, checked and migrated), and makes the `Shop` on it with its change
/// path; a shop in memory when there is neither. The server wires the shop to its connections,
/// and a test's engine harness opens the same shop without any socket. Every thread the shop
/// runs on (its change path's, the background check's) is made by `starter`: the engine starts none of its own. The change paths with a disk are the
/// persistence target's (`Committer`, `SharedWriter`); all of them read the time from `clock`.
package enum StoreOpening {
  /// Throws `StorageError` (or `PostgresError`) when the store cannot be used.
  package static func open(
    configuration: ServerConfiguration, catalog: Catalog, catalogText: String, logger: Logger,
    starter: any ThreadStarter, clock: any EngineClock = MonotonicEngineClock()
  ) throws -> Shop {
    if let store = configuration.store {
      return try openShared(
        PostgresURL(store), configuration: configuration, catalog: catalog, catalogText: catalogText, logger: logger,
        starter: starter, clock: clock)
    }
    guard let directory = configuration.dataDirectory else {
      return Shop(ShopState(catalog: catalog, limits: .inMemory), starter: starter, clock: clock)
    }
    let started = clock.now()
    let database = try ShopDatabase(directory: directory, fsync: configuration.fsync)
    let opened = clock.now()
    let limits = ShopLimits()
    let state = try database.load(catalog: catalog, catalogJSON: catalogText, limits: limits, persist: true)
    let shop = LockedShop(state)
    let committer = Committer(database: database, shop: shop, logger: logger, starter: starter, clock: clock) {
      try database.load(catalog: catalog, catalogJSON: catalogText, limits: limits, persist: false)
    }
    logger.info(
      "storage \(database.kind) \(database.kind.locationKey)=\(database.location) fsync=\(configuration.fsync) \(summary(state)) \(timing(started, opened, clock))"
    )
    return checking(Shop(locked: shop, changes: committer, starter: starter, clock: clock), logger: logger)
  }

  /// A node of a shop shared through PostgreSQL: the database is the authority, and this node's
  /// shop a cache kept by its shared writer.
  private static func openShared(
    _ url: PostgresURL, configuration: ServerConfiguration, catalog: Catalog, catalogText: String, logger: Logger,
    starter: any ThreadStarter, clock: any EngineClock
  ) throws -> Shop {
    let started = clock.now()
    let database = try PostgresShopDatabase(url: url, fsync: configuration.fsync)
    let opened = clock.now()
    let limits = ShopLimits()
    let (state, sequence) = try database.loadShared(
      catalog: catalog, catalogJSON: catalogText, limits: limits, persist: true)
    let node = "\(ProcessInfo.processInfo.hostName):\(getpid())"
    let shop = LockedShop(state)
    let writer = SharedWriter(
      database: database, shop: shop, sequence: sequence, node: node, reads: configuration.reads, logger: logger,
      starter: starter, clock: clock
    ) {
      try database.loadShared(catalog: catalog, catalogJSON: catalogText, limits: limits, persist: false)
    }
    logger.info(
      "storage \(database.kind) \(database.kind.locationKey)=\(database.location) node=\(node) change=\(sequence) reads=\(configuration.reads.rawValue) fsync=\(configuration.fsync) \(summary(state)) \(timing(started, opened, clock))"
    )
    return checking(Shop(locked: shop, changes: writer, starter: starter, clock: clock), logger: logger)
  }

  /// What the start-up line says of how long opening (`started` to `opened`) and loading took.
  private static func timing(_ started: UInt64, _ opened: UInt64, _ clock: any EngineClock) -> String {
    "open_ms=\(Duration.nanoseconds(Int64(opened - started)).milliseconds) load_ms=\(clock.elapsed(since: opened).milliseconds)"
  }

  /// What the start-up line says of the shop loaded.
  private static func summary(_ state: ShopState) -> String {
    "orders=\(state.ordersMade) products=\(state.products.count) diary=\(state.diary.count) order_keys=\(state.orderKeyCount)"
  }

  /// `shop`, with its store's whole check started in the background.
  private static func checking(_ shop: Shop, logger: Logger) -> Shop {
    shop.verifyInBackground(logger: logger)
    return shop
  }
}

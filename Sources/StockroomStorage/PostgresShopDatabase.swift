import Foundation
import StockroomDomain
import StockroomText

/// The shop kept in PostgreSQL, shared by any number of nodes: the same rows as the SQLite file
/// (`PostgresSchema`), and beside them the change log the nodes keep their caches by
/// (`PostgresShopDatabase+Changes`). Here the database is the authority: a node's shop in memory
/// is a cache of it, changed only by committed changes, its own or replayed from the log.
///
/// The writer connection is the shared writer's alone, and the confirmer (the flush barriers')
/// its flusher's, which makes the unchecked `Sendable` sound; reads go through another
/// connection behind a lock.
public final class PostgresShopDatabase: ShopHistory, @unchecked Sendable {
  public let url: PostgresURL
  public let fsync: FsyncPolicy
  public var location: String { url.redacted }
  public var kind: JournalKind { .postgresql }
  let writer: PostgresConnection
  /// Reads from any thread take turns on one connection; a `Mutex` cannot hold a value that
  /// is not `Sendable`, so a plain lock guards it.
  private let readerLock = NSLock()
  private var reader: PostgresConnection?
  /// The flush barriers' own connection (`confirmCommitted`), made on first use; used by one
  /// thread only, the shared writer's flusher.
  private var confirmer: PostgresConnection?

  /// Connects and brings the schema up to date; throws (naming the store, never its password)
  /// when the database cannot be reached.
  public init(url: PostgresURL, fsync: FsyncPolicy) throws {
    self.url = url
    self.fsync = fsync
    writer = try PostgresConnection(url)
    try PostgresSchema.migrate(writer)
    try Self.configure(writer, fsync: fsync)
    reader = try? PostgresConnection(url)
  }

  /// `always` waits for PostgreSQL's WAL flush (and its standbys', as the server is set); the
  /// others let PostgreSQL flush in the background, losing at most its writer's delay on a crash
  /// of the database server (never on a crash of this node).
  private static func configure(_ connection: PostgresConnection, fsync: FsyncPolicy) throws {
    let commit = fsync == .always ? "on" : "off"
    try connection.execute("SET synchronous_commit = \(commit)")
  }

  /// A connection lost to a restart of the database is made again before the next use.
  func usableWriter() throws -> PostgresConnection {
    guard !writer.isConnected else { return writer }
    try writer.reset()
    try Self.configure(writer, fsync: fsync)
    return writer
  }

  /// The connection `confirmCommitted` runs on, made or made again as needed.
  func usableConfirmer() throws -> PostgresConnection {
    if let confirmer, confirmer.isConnected { return confirmer }
    let connection = try confirmer ?? PostgresConnection(url)
    if confirmer != nil { try connection.reset() }
    confirmer = nil
    try Self.configure(connection, fsync: fsync)
    confirmer = connection
    return connection
  }

  /// Drops the flush barriers' connection, to be made again on next use: after the writer lost
  /// the database, it may be one to a server that has since restarted, whose first barrier
  /// would fail and leave commits unconfirmed. Called by the writer while the flusher is idle.
  public func dropConfirmer() {
    confirmer = nil
  }

  func withReader<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
    readerLock.lock()
    defer { readerLock.unlock() }
    let connection = try reader ?? PostgresConnection(url)
    reader = connection
    if !connection.isConnected { try connection.reset() }
    return try body(connection)
  }

  // MARK: Loading

  /// The shop, and the number of the last change it holds: a node replays the change log from
  /// there.
  public func loadShared(catalog: Catalog, catalogJSON: String, limits: ShopLimits, persist: Bool) throws -> (
    shop: ShopState, sequence: Int
  ) {
    let connection = try usableWriter()
    // One snapshot: the rows read, and the change they end at, belong to one moment.
    var snapshot = ShopSnapshot()
    var sequence = 0
    try connection.transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") {
      sequence = Self.int(try connection.query("SELECT seq FROM change_head WHERE id = 1").values.first?[0])
      snapshot.stock = try Self.readStock(on: connection)
      snapshot.products = try Self.readProducts(on: connection)
      snapshot.diary = try Self.readDiary(on: connection)
      for row in try connection.query("SELECT owner, next FROM diary_numbers").values {
        snapshot.diaryNumbers[row[0] ?? ""] = Self.int(row[1])
      }
      snapshot.accounts = try Self.readAccounts(on: connection)
      snapshot.orderKeys = try Self.readOrderKeys(on: connection, retention: limits.orderKeyRetention)
      for row in try connection.query("SELECT key, value FROM meta").values {
        snapshot.counters.setMeta(row[0] ?? "", to: Self.int(row[1]))
      }
    }
    let added = ShopState.newItems(in: catalog, comparedWith: snapshot)
    let state = ShopState(catalog: catalog, limits: limits, restoring: snapshot)
    guard persist else { return (state, sequence) }
    try Self.addNewItems(added, of: state, catalogJSON: catalogJSON, on: connection)
    return (state, sequence)
  }

  private static func readStock(on connection: PostgresConnection) throws -> [String: StockLevel] {
    var stock: [String: StockLevel] = [:]
    for row in try connection.query("SELECT item, initial, restocked, corrected, taken, current FROM stock").values {
      var level = StockLevel(initial: Self.int(row[1]))
      level.restocked = Self.int(row[2])
      level.corrected = Self.int(row[3])
      level.taken = Self.int(row[4])
      level.current = Self.int(row[5])
      stock[row[0] ?? ""] = level
    }
    return stock
  }

  private static func readProducts(on connection: PostgresConnection) throws -> [Product] {
    return try connection.query(
      """
      SELECT id, name, description, price, currency, discount, seller, extract(epoch FROM created)::float8,
        extract(epoch FROM updated)::float8 FROM products ORDER BY seq
      """
    ).values.map { row in
      let id = row[0] ?? ""
      guard let currency = Currency(rawValue: row[4] ?? "") else {
        throw DamagedRow("currency of product \(id)", row[4] ?? "")
      }
      return Product(
        id: id, name: row[1] ?? "", description: row[2] ?? "",
        price: Money(minorUnits: Self.int(row[3]), currency: currency),
        discount: try RowText.discount(from: row[5], currency: currency), seller: row[6] ?? "",
        created: Self.date(row[7]), updated: Self.date(row[8]))
    }
  }

  private static func readDiary(on connection: PostgresConnection) throws -> [DiaryEntry] {
    return try connection.query(
      """
      SELECT id, number, owner, title, body, extract(epoch FROM created)::float8, extract(epoch FROM updated)::float8
      FROM diary
      """
    ).values.map { row in
      DiaryEntry(
        id: Self.int(row[0]), number: Self.int(row[1]), owner: row[2] ?? "", title: row[3] ?? "",
        body: row[4] ?? "", created: Self.date(row[5]), updated: Self.date(row[6]))
    }
  }

  private static func readAccounts(on connection: PostgresConnection) throws -> [Account] {
    return try connection.query(
      """
      SELECT name, role, hash, extract(epoch FROM created)::float8, extract(epoch FROM updated)::float8
      FROM accounts ORDER BY name
      """
    ).values.map { row in
      guard let role = Role(rawValue: row[1] ?? ""), Role.accountRoles.contains(role) else {
        throw DamagedRow("role of account \(row[0] ?? "")", row[1] ?? "")
      }
      return Account(
        name: row[0] ?? "", role: role, passwordHash: row[2] ?? "", created: Self.date(row[3]),
        updated: Self.date(row[4]))
    }
  }

  /// The keyed orders young enough to be retried.
  private static func readOrderKeys(on connection: PostgresConnection, retention: TimeInterval) throws
    -> [OrderKeyRecord]
  {
    let cutoff = Date().addingTimeInterval(-retention).timeIntervalSince1970
    return try connection.query(
      """
      SELECT user_name, key, order_id, requested, extract(epoch FROM placed)::float8 FROM order_keys
      WHERE placed >= to_timestamp($1::float8) ORDER BY placed, order_id
      """, [String(cutoff)]
    ).values.map { row in
      OrderKeyRecord(
        key: OrderKey(user: row[0] ?? "", key: row[1] ?? ""), orderID: Self.int(row[2]),
        requestedText: row[3] ?? "", placed: Self.date(row[4]))
    }
  }

  /// Stock rows for the items only this node's catalogue knows, and the catalogue itself.
  private static func addNewItems(
    _ added: [String], of state: ShopState, catalogJSON: String, on connection: PostgresConnection
  ) throws {
    try connection.transaction {
      // Items only this node's catalogue knows are stock rows no change logged; nodes sharing a
      // store serve the same catalogue (docs/durability.md), and one that starts second adds nothing.
      for item in added {
        try connection.query(
          """
          INSERT INTO stock(item, initial, restocked, corrected, taken, current) VALUES ($1, $2, 0, 0, 0, $2)
          ON CONFLICT (item) DO NOTHING
          """, [item, String(state.level(of: item)!.initial)])
      }
      try connection.query(
        """
        INSERT INTO catalog(id, json, loaded_at) VALUES (1, $1, now())
        ON CONFLICT (id) DO UPDATE SET json = excluded.json, loaded_at = excluded.loaded_at
        """, [catalogJSON])
    }
  }

  public func verify() throws {
    try withReader { connection in
      if let item = try PostgresSchema.itemDisagreeingWithLedger(connection) {
        throw StorageError("the store at \(url) is damaged: the stock of \(item) disagrees with its ledger")
      }
    }
  }

  // MARK: Writing

  /// Drops order keys past their retention: the shared writer's housekeeping. Every other write
  /// goes through the change log (`commitChange`), where the other nodes hear of it.
  public func expireKeys(olderThan cutoff: Date) throws {
    try usableWriter().query(
      "DELETE FROM order_keys WHERE placed < to_timestamp($1::float8)", [String(cutoff.timeIntervalSince1970)])
  }

  // MARK: Reading for commands

  public func ledger(of item: String, paging: Paging) throws -> (entries: [LedgerEntry], total: Int) {
    try withReader { connection in
      let total = Self.int(try connection.query("SELECT count(*) FROM ledger WHERE item = $1", [item]).values.first?[0])
      let entries = try connection.query(
        """
        SELECT seq, item, change, cause, order_id, user_name, extract(epoch FROM at)::float8 FROM ledger
        WHERE item = $1 ORDER BY seq DESC LIMIT $2 OFFSET $3
        """, [item, String(paging.size), String((paging.page - 1) * paging.size)]
      ).values.map { row in
        LedgerEntry(
          item: row[1] ?? "", change: Self.int(row[2]), cause: row[3] ?? "", orderID: row[4].flatMap { Int($0) },
          user: row[5] ?? "", at: Self.date(row[6]), sequence: Self.int(row[0]))
      }
      return (entries, total)
    }
  }

  public func orders(of user: String, below: Int, offset: Int, limit: Int) throws -> (orders: [Order], total: Int) {
    try withReader { connection in
      let total = Self.int(
        try connection.query("SELECT count(*) FROM orders WHERE user_name = $1 AND id < $2", [user, String(below)])
          .values.first?[0])
      guard limit > 0 else { return ([], total) }
      let orders = try connection.query(
        """
        SELECT id, user_name, extract(epoch FROM placed)::float8, lines, taken FROM orders
        WHERE user_name = $1 AND id < $2 ORDER BY id DESC LIMIT $3 OFFSET $4
        """, [user, String(below), String(limit), String(offset)]
      ).values.map(Self.order)
      return (orders, total)
    }
  }

  public func orders(from low: Int, through high: Int) throws -> [Order] {
    try withReader { connection in
      try connection.query(
        """
        SELECT id, user_name, extract(epoch FROM placed)::float8, lines, taken FROM orders
        WHERE id BETWEEN $1 AND $2 ORDER BY id DESC
        """, [String(low), String(high)]
      ).values.map(Self.order)
    }
  }

  public func receipt(of key: OrderKey) throws -> OrderReceipt? {
    try withReader { connection in try Self.receipt(of: key, on: connection) }
  }

  /// `receipt(of:)` for the shared writer, on its own connection: a keyed retry's answer then
  /// never waits behind a command's read (a long STOCKTAKE) on the reader connection.
  public func writerReceipt(of key: OrderKey) throws -> OrderReceipt? {
    try Self.receipt(of: key, on: try usableWriter())
  }

  private static func receipt(of key: OrderKey, on connection: PostgresConnection) throws -> OrderReceipt? {
    try connection.query(
      """
      SELECT o.id, o.user_name, extract(epoch FROM o.placed)::float8, o.lines, o.taken, k.requested, k.levels
      FROM order_keys k JOIN orders o ON o.id = k.order_id WHERE k.user_name = $1 AND k.key = $2
      """, [key.user, key.key]
    ).values.map { row in
      OrderReceipt(
        order: try order(row), levels: try RowText.counts(from: row[6] ?? ""), key: key.key,
        requested: try RowText.counts(from: row[5] ?? ""))
    }.first
  }

  private static func order(_ row: [String?]) throws -> Order {
    Order(
      id: int(row[0]), user: row[1] ?? "", placed: date(row[2]), lines: try RowText.lines(from: row[3] ?? ""),
      taken: try RowText.counts(from: row[4] ?? ""))
  }

  static func int(_ text: String?) -> Int { text.flatMap { Int($0) } ?? 0 }

  static func date(_ text: String?) -> Date { Date(timeIntervalSince1970: text.flatMap { Double($0) } ?? 0) }
}

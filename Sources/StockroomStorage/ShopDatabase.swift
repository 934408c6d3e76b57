import Foundation
import StockroomDomain
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The shop's SQLite file: opening and checking it, loading the shop, and writing batches.
///
/// The writer connection is used by one thread only, the server's committer; that is what makes
/// the unchecked `Sendable` sound. Reads for STOCKTAKE go through a second connection behind a
/// lock, so they never wait for a commit (WAL lets readers and the writer run side by side).
public final class ShopDatabase: ShopJournal, @unchecked Sendable {
  public static let fileName = "stockroom.sqlite"

  public let path: String
  public let fsync: FsyncPolicy
  public var location: String { path }
  public var kind: JournalKind { .sqlite }
  /// Used under `access` only: by the committer's thread, and by a read of history that folds
  /// the commit log first.
  let writer: SQLiteDatabase
  let access = Mutex<Void>(())
  /// Records in the commit log that no fold has written into the tables yet: read without the
  /// lock, so that a read of history takes it only when there is something to fold.
  let unfolded = Atomic<Int>(0)
  /// Their size in bytes, under `access`.
  var unfoldedBytes = 0
  private let reader: Mutex<SQLiteDatabase?>
  private var statements: [String: SQLiteStatement] = [:]
  /// The statements every group commit runs, prepared once and held by name: finding them by
  /// their SQL text hashed the whole text for every row written.
  let hot: HotStatements
  /// The counters as the last commit left them on disk; nil when not known, and then all are written.
  var savedCounters: ShopCounters?
  private var lastCheckpoint = Date()
  /// `stockroom.lock`, held (flock) for the server's life: it serialises the creation of a new
  /// shop and records the pid of the server using the directory.
  private let directoryLock: FileLock
  /// The database file itself, held (flock) for the server's life: two servers on one file would
  /// each trust their own copy of the shop in memory, and the lock file alone can be deleted.
  private let databaseLock: FileLock

  public static let lockFileName = "stockroom.lock"

  /// Where the database of a data directory is.
  public static func path(in directory: String) -> String {
    (directory as NSString).appendingPathComponent(fileName)
  }

  /// Opens (creating when missing) the database in `directory`, checks it and migrates it.
  /// Only a missing file means a new shop: an empty file, or one that is not a Stockroom
  /// database, is refused.
  public init(directory: String, fsync: FsyncPolicy) throws {
    path = Self.path(in: directory)
    self.fsync = fsync
    try Self.makeDirectory(directory)
    directoryLock = try Self.lockDirectory(directory)
    databaseLock = try Self.lockDatabase(path, directory: directory)
    do {
      writer = try SQLiteDatabase(path: path, create: false, holding: databaseLock)
      try Self.checkWritable(writer, directory: directory)
      try Self.checkIntegrity(writer, path: path)
      try writer.execute("PRAGMA journal_mode = WAL")
      try writer.execute("PRAGMA synchronous = \(fsync.synchronousPragma)")
      // Checkpoints are the committer's to schedule in batch mode; elsewhere SQLite's default.
      if case .batch = fsync { try writer.execute("PRAGMA wal_autocheckpoint = 0") }
      try Schema.migrate(writer)
      hot = try HotStatements(writer)
    } catch let error as SQLiteError {
      throw StorageError(error.explained(file: path))
    }
    reader = Mutex(try? SQLiteDatabase(path: path, readOnly: true, holding: databaseLock))
    do {
      // What the last run committed after its last fold: into the tables before anyone reads
      // them (the load, `stockroomd import`), and before the counters are checked against them.
      try countUnfolded()
      try foldLocked()
      try Self.checkCounters(writer, path: path)
    } catch let error as SQLiteError {
      throw StorageError(error.explained(file: path))
    } catch let error as DamagedRow {
      // A commit record that no version wrote: refused at start-up, naming the file.
      throw StorageError("\(path) is damaged: \(error). \(Self.restoreAdvice)")
    }
    directoryLock.write("\(getpid())\n")
  }

  private func statement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
    if let cached = statements[sql] { return cached }
    let prepared = try writer.prepare(sql)
    statements[sql] = prepared
    return prepared
  }

  // MARK: Loading

  /// The saved shop, checked: every item's stock balances and agrees with its ledger.
  /// Catalogue items the file does not know yet are added with their catalogue stock.
  /// `persist` false reads only: after a failed commit the disk may refuse every write.
  public func load(catalog: Catalog, catalogJSON: String, limits: ShopLimits, persist: Bool = true) throws -> ShopState
  {
    try access.withLock { _ in
      if persist { try foldLocked() }
      return try loadLocked(catalog: catalog, catalogJSON: catalogJSON, limits: limits, persist: persist)
    }
  }

  private func loadLocked(catalog: Catalog, catalogJSON: String, limits: ShopLimits, persist: Bool) throws -> ShopState
  {
    var snapshot = ShopSnapshot()
    let stockRows = try writer.prepare("SELECT item, initial, restocked, corrected, taken, current FROM stock")
    for (item, level) in try stockRows.rows(
      [],
      { row in
        var level = StockLevel(initial: row.int(1))
        level.restocked = row.int(2)
        level.corrected = row.int(3)
        level.taken = row.int(4)
        level.current = row.int(5)
        return (row.text(0), level)
      })
    {
      snapshot.stock[item] = level
    }
    snapshot.products = try writer.prepare(
      "SELECT id, name, description, price, currency, discount, seller, created, updated FROM products ORDER BY seq"
    ).rows { row in
      guard let currency = Currency(rawValue: row.text(4)) else {
        throw DamagedRow("currency of product \(row.text(0))", row.text(4))
      }
      return Product(
        id: row.text(0), name: row.text(1), description: row.text(2),
        price: Money(minorUnits: row.int(3), currency: currency),
        discount: try RowText.discount(from: row.optionalText(5), currency: currency), seller: row.text(6),
        created: Date(timeIntervalSince1970: row.double(7)), updated: Date(timeIntervalSince1970: row.double(8)))
    }
    snapshot.diary = try writer.prepare("SELECT id, number, owner, title, body, created, updated FROM diary").rows {
      row in
      DiaryEntry(
        id: row.int(0), number: row.int(1), owner: row.text(2), title: row.text(3), body: row.text(4),
        created: Date(timeIntervalSince1970: row.double(5)), updated: Date(timeIntervalSince1970: row.double(6)))
    }
    for (owner, next) in try writer.prepare("SELECT owner, next FROM diary_numbers").rows(
      [],
      {
        ($0.text(0), $0.int(1))
      })
    {
      snapshot.diaryNumbers[owner] = next
    }
    snapshot.accounts = try Self.accounts(in: writer)
    // Orders stay in the file, where LIST orders reads them: parsing the newest 10,000 of 100
    // lines each took seconds of a restart. Memory holds only the orders made since.
    let cutoff = Date().addingTimeInterval(-limits.orderKeyRetention).timeIntervalSince1970
    // Only what recognises a retry: its receipt is read from the file when one comes.
    snapshot.orderKeys = try writer.prepare(
      "SELECT user, key, order_id, requested, placed FROM order_keys WHERE placed >= ? ORDER BY placed, order_id"
    ).rows([.real(cutoff)]) { row in
      OrderKeyRecord(
        key: OrderKey(user: row.text(0), key: row.text(1)), orderID: row.int(2),
        requestedText: row.text(3), placed: Date(timeIntervalSince1970: row.double(4)))
    }
    var counters = ShopCounters()
    let meta = try writer.prepare("SELECT key, value FROM meta").rows { ($0.text(0), $0.int(1)) }
    for (key, value) in meta { counters.setMeta(key, to: value) }
    snapshot.counters = counters
    // Empty unless this load may not write, and so could not fold.
    try overlayCommitLog(on: &snapshot, keysSince: cutoff)
    try verifyEquations(snapshot.stock)
    let added = ShopState.newItems(in: catalog, comparedWith: snapshot)
    let state = ShopState(catalog: catalog, limits: limits, restoring: snapshot)
    guard persist else { return state }
    try writer.transaction {
      for item in added { try saveStock(item, state.level(of: item)!) }
      try statement("INSERT OR REPLACE INTO catalog(id, json, loaded_at) VALUES (1, ?, ?)").run([
        .text(catalogJSON), .real(Date().timeIntervalSince1970),
      ])
    }
    return state
  }

  private static func order(_ row: SQLiteStatement) throws -> Order {
    Order(
      id: row.int(0), user: row.text(1), placed: Date(timeIntervalSince1970: row.double(2)),
      lines: try RowText.lines(from: row.text(3)), taken: try RowText.counts(from: row.text(4)))
  }

  /// Refuses a store whose stock does not add up, naming the first item that does not. Reads
  /// only the stock rows, so it costs nothing at start-up; the ledger is checked by `verify`.
  private func verifyEquations(_ stock: [String: StockLevel]) throws {
    for (item, level) in stock.sorted(by: { $0.key < $1.key }) {
      guard level.balances, level.current >= 0 else {
        throw StorageError(
          "\(path) is damaged: the stock of \(item) does not balance: initial \(level.initial) + restocked "
            + "\(level.restocked) - corrected \(level.corrected) - taken \(level.taken) is not the current "
            + "\(level.current). \(Self.restoreAdvice)")
      }
    }
  }

  /// The checks that read the whole file: SQLite's page-by-page `quick_check`, and every item's
  /// stock row against the sum of its ledger. They take seconds on a large shop (a full scan of
  /// the ledger), so the server runs them on a connection of their own once it is serving, rather
  /// than keep a restart away for that long. Throws naming the file or the first item that fails.
  public func verify() throws {
    let database = try SQLiteDatabase(path: path, readOnly: true, holding: databaseLock)
    let check = try database.quickCheck()
    guard check == "ok" else { throw StorageError("\(path) is damaged (\(check)). \(Self.restoreAdvice)") }
    // One read transaction, so that the stock rows and the ledger are the same moment's.
    try database.execute("BEGIN")
    defer { try? database.execute("ROLLBACK") }
    do {
      let stock = try database.prepare("SELECT item, restocked, corrected, taken FROM stock").rows { row in
        (row.text(0), (row.int(1), row.int(2), row.int(3)))
      }
      // NOT INDEXED: one pass over the table and a sort is twice as fast as the index's random reads.
      let sums = try database.prepare(
        """
        SELECT item,
          total(CASE cause WHEN 'restock' THEN change ELSE 0 END),
          total(CASE cause WHEN 'stocktake' THEN -change ELSE 0 END),
          total(CASE cause WHEN 'order' THEN -change ELSE 0 END)
        FROM ledger NOT INDEXED GROUP BY item
        """
      ).rows { row in (row.text(0), Int(row.double(1)), Int(row.double(2)), Int(row.double(3))) }
      var ledger: [String: (restocked: Int, corrected: Int, taken: Int)] = [:]
      for (item, restocked, corrected, taken) in sums { ledger[item] = (restocked, corrected, taken) }
      for (item, level) in stock.sorted(by: { $0.0 < $1.0 }) {
        let recorded = ledger[item] ?? (0, 0, 0)
        guard recorded == level else {
          throw StorageError(
            "\(path) is damaged: the stock of \(item) disagrees with its ledger: the stock row says restocked "
              + "\(level.0), corrected \(level.1), taken \(level.2); the ledger says \(recorded.restocked), "
              + "\(recorded.corrected), \(recorded.taken). \(Self.restoreAdvice)")
        }
      }
    }
  }

  /// What to do about a file whose rows contradict each other.
  private static let restoreAdvice =
    "The file was edited or damaged: restore a backup made with `stockroomd backup`, or move the file away "
    + "to start a new, empty shop"

  // MARK: Writing

  struct HotStatements {
    let appendCommit: SQLiteStatement
    let deleteCommits: SQLiteStatement
    let upsertStock: SQLiteStatement
    let insertLedger: SQLiteStatement
    let insertOrder: SQLiteStatement
    let upsertKey: SQLiteStatement
    let upsertMeta: SQLiteStatement
    /// The fold's: its ledger lines, orders and receipts, several to a statement, in the order
    /// and layout of `CommitRecord`'s fields.
    let foldedRows: [BatchedInsert]

    init(_ database: SQLiteDatabase) throws(SQLiteError) {
      appendCommit = try database.prepare("INSERT INTO commit_log(record) VALUES (?)")
      deleteCommits = try database.prepare("DELETE FROM commit_log WHERE seq <= ?")
      upsertStock = try database.prepare(
        """
        INSERT INTO stock(item, initial, restocked, corrected, taken, current) VALUES (?, ?, ?, ?, ?, ?)
        ON CONFLICT(item) DO UPDATE SET initial = excluded.initial, restocked = excluded.restocked,
          corrected = excluded.corrected, taken = excluded.taken, current = excluded.current
        """)
      insertLedger = try database.prepare(
        "INSERT INTO ledger(item, change, cause, order_id, user, at) VALUES (?, ?, ?, ?, ?, ?)")
      insertOrder = try database.prepare("INSERT INTO orders(id, user, placed, lines, taken) VALUES (?, ?, ?, ?, ?)")
      upsertKey = try database.prepare(
        "INSERT OR REPLACE INTO order_keys(user, key, order_id, requested, levels, placed) VALUES (?, ?, ?, ?, ?, ?)")
      upsertMeta = try database.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)")
      foldedRows = [
        try BatchedInsert(
          database, "INSERT INTO ledger(item, change, cause, order_id, user, at)",
          layout: [.text, .integer, .text, .optionalInteger, .text, .real]),
        try BatchedInsert(
          database, "INSERT INTO orders(id, user, placed, lines, taken)",
          layout: [.integer, .text, .real, .text, .text]),
        try BatchedInsert(
          database, "INSERT OR REPLACE INTO order_keys(user, key, order_id, requested, levels, placed)",
          layout: [.text, .text, .integer, .text, .text, .real]),
      ]
    }
  }

  /// Writes one item's stock row, new or not: for the group commit and for items a changed
  /// catalogue adds at start-up.
  func saveStock(_ item: String, _ level: StockLevel) throws(SQLiteError) {
    let stock = hot.upsertStock
    try stock.bind(1, item)
    try stock.bind(2, level.initial)
    try stock.bind(3, level.restocked)
    try stock.bind(4, level.corrected)
    try stock.bind(5, level.taken)
    try stock.bind(6, level.current)
    try stock.execute()
  }

  /// Writes `batch` in one transaction. On failure nothing of it is in the file.
  ///
  /// Orders, restocks and stocktakes go into the commit log as one record; anything else is
  /// written to the tables, after the log is folded in the same transaction, so the tables take
  /// every change in the order it was made.
  public func write(_ batch: JournalBatch) throws {
    try access.withLock { _ in
      if CommitRecord.holds(batch) {
        let bytes = try writer.transaction { try append(batch) }
        unfoldedBytes += bytes
        unfolded.add(1, ordering: .releasing)
        return
      }
      do {
        try writer.transaction {
          try foldRows()
          try writeRows(batch)
        }
      } catch {
        // Rolled back: what the disk holds is no longer known for sure.
        savedCounters = nil
        throw error
      }
      unfolded.store(0, ordering: .releasing)
      unfoldedBytes = 0
      if let counters = batch.counters { savedCounters = counters }
    }
  }

  private func writeRows(_ batch: JournalBatch) throws {
    try writeStock(batch)
    try writeLedger(batch)
    try writeOrders(batch)
    try writeProducts(batch)
    try writeDiary(batch)
    try writeAccounts(batch)
    try writeCounters(batch)
  }

  /// The stock levels it set and the items it removed.
  private func writeStock(_ batch: JournalBatch) throws {
    for (item, level) in batch.stock { try saveStock(item, level) }
    for item in batch.deletedStock { try statement("DELETE FROM stock WHERE item = ?").run([.text(item)]) }
  }

  /// The ledger lines it adds.
  private func writeLedger(_ batch: JournalBatch) throws {
    let ledger = hot.insertLedger
    for entry in batch.ledger {
      try ledger.bind(1, entry.item)
      try ledger.bind(2, entry.change)
      try ledger.bind(3, entry.cause)
      try ledger.bind(4, entry.orderID)
      try ledger.bind(5, entry.user)
      try ledger.bind(6, entry.at.timeIntervalSince1970)
      try ledger.execute()
    }
  }

  /// The orders it took, and the receipts kept for their keys.
  private func writeOrders(_ batch: JournalBatch) throws {
    let orders = hot.insertOrder
    for order in batch.orders {
      try orders.bind(1, order.id)
      try orders.bind(2, order.user)
      try orders.bind(3, order.placed.timeIntervalSince1970)
      try orders.bind(4, RowText.lines(order.lines))
      try orders.bind(5, RowText.counts(order.taken))
      try orders.execute()
    }
    let keys = hot.upsertKey
    for receipt in batch.receipts {
      guard let key = receipt.key else { continue }
      try keys.bind(1, receipt.order.user)
      try keys.bind(2, key)
      try keys.bind(3, receipt.order.id)
      try keys.bind(4, RowText.counts(receipt.requested))
      try keys.bind(5, RowText.counts(receipt.levels))
      try keys.bind(6, receipt.order.placed.timeIntervalSince1970)
      try keys.execute()
    }
  }

  /// The market products it listed, changed or removed.
  private func writeProducts(_ batch: JournalBatch) throws {
    let product = try statement(
      """
      INSERT INTO products(id, seq, name, description, price, currency, discount, seller, created, updated)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT(id) DO UPDATE SET name = excluded.name, description = excluded.description,
        price = excluded.price, currency = excluded.currency, discount = excluded.discount,
        updated = excluded.updated
      """)
    for item in batch.products.values {
      try product.run([
        .text(item.id), .integer(Int(item.id.dropFirst()) ?? 0), .text(item.name), .text(item.description),
        .integer(item.price.minorUnits), .text(item.price.currency.rawValue),
        SQLiteValue(RowText.discount(item.discount)),
        .text(item.seller), .real(item.created.timeIntervalSince1970), .real(item.updated.timeIntervalSince1970),
      ])
    }
    for id in batch.deletedProducts { try statement("DELETE FROM products WHERE id = ?").run([.text(id)]) }
  }

  /// The diary entries it wrote or removed, and each owner's next number.
  private func writeDiary(_ batch: JournalBatch) throws {
    for id in batch.deletedDiary { try statement("DELETE FROM diary WHERE id = ?").run([.integer(id)]) }
    let diary = try statement(
      "INSERT OR REPLACE INTO diary(id, number, owner, title, body, created, updated) VALUES (?, ?, ?, ?, ?, ?, ?)")
    for entry in batch.diary.values {
      try diary.run([
        .integer(entry.id), .integer(entry.number), .text(entry.owner), .text(entry.title), .text(entry.body),
        .real(entry.created.timeIntervalSince1970), .real(entry.updated.timeIntervalSince1970),
      ])
    }
    let numbers = try statement(
      "INSERT INTO diary_numbers(owner, next) VALUES (?, ?) ON CONFLICT(owner) DO UPDATE SET next = excluded.next")
    for (owner, next) in batch.diaryNumbers { try numbers.run([.text(owner), .integer(next)]) }
  }

  /// The accounts it made, changed or removed.
  private func writeAccounts(_ batch: JournalBatch) throws {
    for name in batch.deletedAccounts { try statement("DELETE FROM accounts WHERE name = ?").run([.text(name)]) }
    let account = try statement(
      "INSERT OR REPLACE INTO accounts(name, role, hash, created, updated) VALUES (?, ?, ?, ?, ?)")
    for item in batch.accounts.values {
      try account.run([
        .text(item.name), .text(item.role.rawValue), .text(item.passwordHash),
        .real(item.created.timeIntervalSince1970),
        .real(item.updated.timeIntervalSince1970),
      ])
    }
  }

  /// The shop's counters that changed.
  private func writeCounters(_ batch: JournalBatch) throws {
    if let counters = batch.counters { try saveCounters(counters) }
  }

  /// Writes the counters that moved since the last that were written, and remembers them: a
  /// failed transaction forgets them (`savedCounters = nil`), so the next writes them all.
  func saveCounters(_ counters: ShopCounters) throws(SQLiteError) {
    let meta = hot.upsertMeta
    for (key, value) in counters.metaRows(changedSince: savedCounters) {
      try meta.bind(1, key)
      try meta.bind(2, value)
      try meta.execute()
    }
    savedCounters = counters
  }

  /// Folds the commit log into the tables and SQLite's log into the file, as a clean stop
  /// should leave them.
  public func checkpoint() throws {
    try access.withLock { _ in
      try foldLocked()
      try writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }
  }

  /// A 64 KiB write, to learn whether writing works again after a failure: room for one tiny
  /// row is not room for the next batch of orders.
  public func probe() throws {
    try access.withLock { _ in
      try writer.transaction {
        try statement("INSERT OR REPLACE INTO probe(id, payload) VALUES (1, zeroblob(65536))").run()
      }
    }
  }

  /// In batch mode, forces the log to the disk when the interval has passed.
  public func syncIfDue(now: Date) throws {
    guard case .batch(let milliseconds) = fsync,
      now.timeIntervalSince(lastCheckpoint) * 1000 >= Double(milliseconds)
    else { return }
    lastCheckpoint = now
    // In WAL mode a checkpoint fsyncs the log before copying it into the database.
    try access.withLock { _ in try writer.execute("PRAGMA wal_checkpoint(PASSIVE)") }
  }

  /// Drops order keys past their retention.
  public func expireKeys(olderThan cutoff: Date) throws {
    try access.withLock { _ in
      // Folded first, so that no key older than the cutoff arrives after the delete.
      try foldLocked()
      try statement("DELETE FROM order_keys WHERE placed < ?").run([.real(cutoff.timeIntervalSince1970)])
    }
  }

  // MARK: Reading for commands

  /// One item's ledger, newest first, and how many entries it has in all.
  public func ledger(of item: String, paging: Paging) throws -> (entries: [LedgerEntry], total: Int) {
    try foldForRead()
    return try reader.withLock { reader in
      // Opened on first use: the file may not have been readable when the server started.
      if reader == nil { reader = try SQLiteDatabase(path: path, readOnly: true, holding: databaseLock) }
      guard let reader else { return ([], 0) }
      let total = try reader.scalar("SELECT count(*) FROM ledger WHERE item = ?", [.text(item)]) ?? 0
      let entries = try reader.prepare(
        "SELECT seq, item, change, cause, order_id, user, at FROM ledger WHERE item = ? ORDER BY seq DESC LIMIT ? OFFSET ?"
      ).rows([.text(item), .integer(paging.size), .integer((paging.page - 1) * paging.size)]) { row in
        LedgerEntry(
          item: row.text(1), change: row.int(2), cause: row.text(3), orderID: row.isNull(4) ? nil : row.int(4),
          user: row.text(5), at: Date(timeIntervalSince1970: row.double(6)), sequence: row.int(0))
      }
      return (entries, total)
    }
  }

  /// Orders with ids from `low` through `high`, newest first.
  /// `user`'s orders older than order `below`, newest first: `limit` of them after skipping `offset`;
  /// and how many there are in all.
  public func orders(
    of user: String, below: Int, offset: Int, limit: Int
  ) throws -> (orders: [Order], total: Int) {
    try foldForRead()
    return try reader.withLock { reader in
      if reader == nil { reader = try SQLiteDatabase(path: path, readOnly: true, holding: databaseLock) }
      guard let reader else { return ([], 0) }
      let total =
        try reader.prepare("SELECT COUNT(*) FROM orders WHERE user = ? AND id < ?").rows(
          [.text(user), .integer(below)], { $0.int(0) }
        ).first ?? 0
      guard limit > 0 else { return ([], total) }
      let orders = try reader.prepare(
        "SELECT id, user, placed, lines, taken FROM orders WHERE user = ? AND id < ? ORDER BY id DESC LIMIT ? OFFSET ?"
      ).rows([.text(user), .integer(below), .integer(limit), .integer(offset)], Self.order)
      return (orders, total)
    }
  }

  public func orders(from low: Int, through high: Int) throws -> [Order] {
    try foldForRead()
    return try reader.withLock { reader in
      if reader == nil { reader = try SQLiteDatabase(path: path, readOnly: true, holding: databaseLock) }
      guard let reader else { return [] }
      return try reader.prepare(
        "SELECT id, user, placed, lines, taken FROM orders WHERE id BETWEEN ? AND ? ORDER BY id DESC"
      ).rows([.integer(low), .integer(high)], Self.order)
    }
  }

  /// The receipt of a keyed order, as its first answer gave it; nil when the key is not kept.
  public func receipt(of key: OrderKey) throws -> OrderReceipt? {
    try foldForRead()
    return try reader.withLock { reader in
      if reader == nil { reader = try SQLiteDatabase(path: path, readOnly: true) }
      guard let reader else { return nil }
      return try reader.prepare(
        """
        SELECT o.id, o.user, o.placed, o.lines, o.taken, k.requested, k.levels FROM order_keys k
        JOIN orders o ON o.id = k.order_id WHERE k.user = ? AND k.key = ?
        """
      ).rows([.text(key.user), .text(key.key)]) { row in
        OrderReceipt(
          order: try Self.order(row), levels: try RowText.counts(from: row.text(6)), key: key.key,
          requested: try RowText.counts(from: row.text(5)))
      }.first
    }
  }

  /// Writes a consistent copy of the database to `file` with SQLite's online backup.
  public static func backup(directory: String, to file: String) throws {
    let source = (directory as NSString).appendingPathComponent(fileName)
    guard FileManager.default.fileExists(atPath: source) else {
      throw StorageError("no Stockroom database at \(source)")
    }
    guard !FileManager.default.fileExists(atPath: file) else {
      throw StorageError("\(file) already exists; a backup never overwrites")
    }
    do {
      let database = try SQLiteDatabase(path: source, readOnly: true)
      try database.backup(to: file)
    } catch {
      throw StorageError("backup of \(source) to \(file) failed: \(error)")
    }
  }
}

import Foundation

/// `stockroomd import`: copies a SQLite shop, every row of every table, into an empty PostgreSQL
/// store in one transaction, then checks the stock equation and every item's stock against its
/// ledger there before committing. Either the whole shop arrives, checked, or nothing does.
public enum PostgresImport {
  /// How a column's SQLite value becomes a PostgreSQL parameter.
  private enum Kind {
    case text
    case integer
    /// SQLite's seconds since 1970 (REAL) into `timestamptz`.
    case time
  }

  private struct Table {
    let name: String
    /// (SQLite column, PostgreSQL column, kind)
    let columns: [(String, String, Kind)]
  }

  /// Every table of the shop, in an order that would satisfy foreign keys if there were any.
  private static let tables: [Table] = [
    Table(name: "meta", columns: [("key", "key", .text), ("value", "value", .integer)]),
    Table(
      name: "catalog", columns: [("id", "id", .integer), ("json", "json", .text), ("loaded_at", "loaded_at", .time)]),
    Table(
      name: "stock",
      columns: [
        ("item", "item", .text), ("initial", "initial", .integer), ("restocked", "restocked", .integer),
        ("corrected", "corrected", .integer), ("taken", "taken", .integer), ("current", "current", .integer),
      ]),
    Table(
      name: "ledger",
      columns: [
        ("seq", "seq", .integer), ("item", "item", .text), ("change", "change", .integer), ("cause", "cause", .text),
        ("order_id", "order_id", .integer), ("user", "user_name", .text), ("at", "at", .time),
      ]),
    Table(
      name: "orders",
      columns: [
        ("id", "id", .integer), ("user", "user_name", .text), ("placed", "placed", .time), ("lines", "lines", .text),
        ("taken", "taken", .text),
      ]),
    Table(
      name: "order_keys",
      columns: [
        ("user", "user_name", .text), ("key", "key", .text), ("order_id", "order_id", .integer),
        ("requested", "requested", .text), ("levels", "levels", .text), ("placed", "placed", .time),
      ]),
    Table(
      name: "products",
      columns: [
        ("id", "id", .text), ("seq", "seq", .integer), ("name", "name", .text), ("description", "description", .text),
        ("price", "price", .integer), ("currency", "currency", .text), ("discount", "discount", .text),
        ("seller", "seller", .text), ("created", "created", .time), ("updated", "updated", .time),
      ]),
    Table(
      name: "diary",
      columns: [
        ("id", "id", .integer), ("number", "number", .integer), ("owner", "owner", .text), ("title", "title", .text),
        ("body", "body", .text), ("created", "created", .time), ("updated", "updated", .time),
      ]),
    Table(name: "diary_numbers", columns: [("owner", "owner", .text), ("next", "next", .integer)]),
    Table(
      name: "accounts",
      columns: [
        ("name", "name", .text), ("role", "role", .text), ("hash", "hash", .text), ("created", "created", .time),
        ("updated", "updated", .time),
      ]),
  ]

  /// Imports the shop in `directory` into the store at `url`, which must hold no shop yet.
  /// The SQLite shop is opened as a starting server opens it (locked, checked, brought to the
  /// current schema), so a server running on it refuses the import.
  public static func run(from directory: String, into url: PostgresURL) throws -> ImportReport {
    let path = ShopDatabase.path(in: directory)
    guard FileManager.default.fileExists(atPath: path) else {
      throw StorageError("there is no shop to import at \(path)")
    }
    let shop = try ShopDatabase(directory: directory, fsync: .always)
    try shop.verify()
    let source = try SQLiteDatabase(path: shop.path, create: false, holding: shop)
    // One read transaction: every table is read at the same moment.
    try source.execute("BEGIN")
    defer { try? source.execute("ROLLBACK") }
    let target = try PostgresConnection(url, applicationName: "stockroomd import")
    try PostgresSchema.migrate(target)
    return try target.transaction("BEGIN ISOLATION LEVEL SERIALIZABLE") {
      let existing = try target.query(
        "SELECT (SELECT count(*) FROM stock) + (SELECT count(*) FROM accounts) + (SELECT count(*) FROM orders) AS rows")
      guard existing[0, "rows"] == "0" else {
        throw StorageError(
          "the PostgreSQL store at \(url) already holds a shop; import only into an empty store "
            + "(a new database, then stockroomd migrate)")
      }
      var report = ImportReport()
      for table in tables {
        report.rows.append((table.name, try copy(table, from: source, to: target)))
      }
      // Copied `seq` values were given, not drawn: start the sequence after the last.
      try target.execute(
        "SELECT setval(pg_get_serial_sequence('ledger', 'seq'), (SELECT COALESCE(max(seq), 0) + 1 FROM ledger), false)"
      )
      try checkLedger(target, url: url)
      return report
    }
  }

  private static func copy(_ table: Table, from source: SQLiteDatabase, to target: PostgresConnection) throws -> Int {
    let select = try source.prepare(
      "SELECT \(table.columns.map { "\"\($0.0)\"" }.joined(separator: ", ")) FROM \(table.name)")
    let into = "\(table.name)(\(table.columns.map(\.1).joined(separator: ", ")))"
    let timeColumns = Set(table.columns.indices.filter { table.columns[$0].2 == .time })
    var pending: [[String?]] = []
    var count = 0
    func flush() throws {
      try target.insert(into: into, columns: table.columns.count, timeColumns: timeColumns, pending)
      pending.removeAll(keepingCapacity: true)
    }
    while try select.step() {
      pending.append(
        table.columns.enumerated().map { index, column in
          let position = Int32(index)
          guard !select.isNull(position) else { return nil }
          switch column.2 {
          case .text: return select.text(position)
          case .integer: return String(select.int(position))
          case .time: return String(select.double(position))
          }
        })
      count += 1
      if pending.count == PostgresConnection.rowsPerInsert { try flush() }
    }
    try flush()
    return count
  }

  /// The stock equation holds by the table's CHECK; here every item's restocked, corrected and
  /// taken must also equal the sums of its ledger, as `ShopDatabase.verify` checks in SQLite.
  private static func checkLedger(_ target: PostgresConnection, url: PostgresURL) throws {
    if let item = try PostgresSchema.itemDisagreeingWithLedger(target) {
      throw StorageError("the import into \(url) was undone: the stock of \(item) disagrees with its ledger there")
    }
  }
}

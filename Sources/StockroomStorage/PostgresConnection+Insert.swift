/// Many rows in few round trips: the import's copies.
extension PostgresConnection {
  /// Inserts `rows` into `table` (with its column list: `ledger(item, change, ...)`), a few
  /// hundred rows a statement, all in one round trip. The columns at `timeColumns` (0-based) hold
  /// seconds since 1970 for a `timestamptz`.
  func insert(into table: String, columns: Int, timeColumns: Set<Int>, _ rows: [[String?]]) throws {
    try pipeline(PostgresStatement.inserts(into: table, columns: columns, timeColumns: timeColumns, rows))
  }
}

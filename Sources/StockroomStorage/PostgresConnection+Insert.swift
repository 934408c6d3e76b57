/// Many rows in few round trips: the import's copies.
extension PostgresConnection {
  /// Rows per INSERT, far below PostgreSQL's 65,535 parameters.
  static let rowsPerInsert = 500

  /// Inserts `rows` into `table` (with its column list: `ledger(item, change, ...)`),
  /// `rowsPerInsert` a statement, all in one round trip. The columns at `timeColumns` (0-based)
  /// hold seconds since 1970 for a `timestamptz`.
  func insert(into table: String, columns: Int, timeColumns: Set<Int>, _ rows: [[String?]]) throws {
    let statements = stride(from: 0, to: rows.count, by: Self.rowsPerInsert).map { start in
      let chunk = rows[start..<min(start + Self.rowsPerInsert, rows.count)]
      let values = chunk.indices.map { row in
        "("
          + (0..<columns).map { column in
            let placeholder = "$\((row - start) * columns + column + 1)"
            return timeColumns.contains(column) ? "to_timestamp(\(placeholder)::float8)" : placeholder
          }.joined(separator: ", ") + ")"
      }
      return PostgresStatement("INSERT INTO \(table) VALUES " + values.joined(separator: ", "), chunk.flatMap { $0 })
    }
    try pipeline(statements)
  }
}

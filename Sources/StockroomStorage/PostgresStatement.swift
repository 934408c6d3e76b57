/// One SQL statement with its `$1`, `$2`… parameters (text format; nil is NULL), to be sent
/// alone (`PostgresConnection.query`) or with others in one round trip (`pipeline`).
public struct PostgresStatement: Sendable, Equatable {
  public var sql: String
  public var parameters: [String?]

  public init(_ sql: String, _ parameters: [String?] = []) {
    self.sql = sql
    self.parameters = parameters
  }

  /// Rows per INSERT, far below PostgreSQL's 65,535 parameters.
  static let rowsPerInsert = 500

  /// INSERTs of `rows` into `table` (with its column list: `ledger(item, change, ...)`),
  /// `rowsPerInsert` a statement. The columns at `timeColumns` (0-based) hold seconds since 1970
  /// for a `timestamptz`.
  static func inserts(into table: String, columns: Int, timeColumns: Set<Int>, _ rows: [[String?]])
    -> [PostgresStatement]
  {
    stride(from: 0, to: rows.count, by: rowsPerInsert).map { start in
      let chunk = rows[start..<min(start + rowsPerInsert, rows.count)]
      let values = chunk.indices.map { row in
        "("
          + (0..<columns).map { column in
            let placeholder = "$\((row - start) * columns + column + 1)"
            return timeColumns.contains(column) ? "to_timestamp(\(placeholder)::float8)" : placeholder
          }.joined(separator: ", ") + ")"
      }
      return PostgresStatement("INSERT INTO \(table) VALUES " + values.joined(separator: ", "), chunk.flatMap { $0 })
    }
  }
}

/// The statements every group commit of a SQLite shop runs (`ShopDatabase.write` and the fold),
/// prepared once on the writer connection and held by name: finding them by their SQL text
/// hashed the whole text for every row written.
struct SQLiteHotStatements {
  let appendCommit: SQLiteStatement
  let deleteCommits: SQLiteStatement
  let upsertStock: SQLiteStatement
  let upsertMeta: SQLiteStatement
  /// The fold's: its ledger lines, orders and receipts, several to a statement, in the order
  /// and layout of `CommitRecord`'s fields. Every write of those tables goes through them.
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

import Foundation
import StockroomDomain
import Synchronization

/// Writing group commits: the committer's, on its one thread. Orders, restocks and stocktakes
/// go to the commit log (`ShopDatabase+CommitLog`); everything else to the tables.
extension ShopDatabase {
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

  /// Its stock levels, ledger lines, orders, receipts and counters are written as the commit
  /// log's are: encoded as a `CommitRecord` and folded (a batch without counters leaves them).
  private func writeRows(_ batch: JournalBatch) throws {
    try writeRows(of: [(0, CommitRecord.encode(batch))], counters: batch.counters != nil)
    for item in batch.deletedStock { try statement("DELETE FROM stock WHERE item = ?").run([.text(item)]) }
    try writeProducts(batch)
    try writeDiary(batch)
    try writeAccounts(batch)
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
}

import Foundation
import StockroomDomain
import Synchronization

/// The reads of history for commands (STOCKTAKE's ledger, LIST orders, a keyed retry's receipt):
/// on the second connection, behind its own lock, after folding the commit log so the tables
/// hold every commit, and never waiting for a commit in progress.
extension ShopDatabase {
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

  /// Orders with ids from `low` through `high`, newest first.
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

  static func order(_ row: SQLiteStatement) throws -> Order {
    Order(
      id: row.int(0), user: row.text(1), placed: Date(timeIntervalSince1970: row.double(2)),
      lines: try RowText.lines(from: row.text(3)), taken: try RowText.counts(from: row.text(4)))
  }
}

import Foundation
import StockroomDomain

/// The checks that read the whole file, run by the server in the background once it serves.
extension ShopDatabase {
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
  static let restoreAdvice =
    "The file was edited or damaged: restore a backup made with `stockroomd backup`, or move the file away "
    + "to start a new, empty shop"
}

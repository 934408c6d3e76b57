import Foundation
import StockroomDomain

/// The commit log: a group commit of orders, restocks and stocktakes appends one record
/// (`CommitRecord`) to `commit_log` and writes nothing else, so its transaction touches about one
/// page instead of the seven that the stock, ledger, order, index and counter rows took. A fold
/// writes the records' rows into those tables and deletes the records, in one transaction, off
/// the commit path: when the committer is idle, when the log has grown by `foldBytes`, before a
/// read of history (STOCKTAKE, LIST orders, a keyed retry's receipt), before a batch that the log
/// cannot hold, and when the file is opened. The tables are therefore always one moment's, and
/// the log holds what happened after that moment.
extension ShopDatabase {
  /// How much the log may hold before the committer folds it between commits: a few hundred
  /// orders, which a start-up after `kill -9` replays in milliseconds.
  static let foldBytes = 64 * 1024

  /// Appends `batch` as one record. Called in the commit's transaction.
  func append(_ batch: JournalBatch) throws(SQLiteError) -> Int {
    let record = CommitRecord.encode(batch)
    try hot.appendCommit.bind(1, record)
    try hot.appendCommit.execute()
    return record.count
  }

  /// The log's records, oldest first, with their numbers.
  func commitRecords() throws -> [(sequence: Int, record: CommitRecord)] {
    try writer.prepare("SELECT seq, record FROM commit_log ORDER BY seq").rows { row in
      (row.int(0), try CommitRecord(decoding: row.blob(1), sequence: row.int(0)))
    }
  }

  /// Writes every record's rows into the tables and deletes the records; in the caller's
  /// transaction, with `access` held.
  func foldRows() throws {
    let records = try commitRecords()
    guard let last = records.last else { return }
    var stock: [String: StockLevel] = [:]
    for (_, record) in records {
      for (item, level) in record.stock { stock[item] = level }
      for entry in record.ledger { try insertLedger(entry) }
      for order in record.orders { try insertOrder(order) }
      for key in record.keys { try upsertKey(key) }
    }
    for (item, level) in stock { try saveStock(item, level) }
    try saveCounters(last.record.counters)
    try hot.deleteCommits.bind(1, last.sequence)
    try hot.deleteCommits.execute()
  }

  /// Folds the log in a transaction of its own, if it holds anything; `access` held.
  func foldLocked() throws {
    guard unfolded.load(ordering: .acquiring) > 0 else { return }
    do {
      try writer.transaction { try foldRows() }
    } catch {
      savedCounters = nil
      throw error
    }
    unfolded.store(0, ordering: .releasing)
    unfoldedBytes = 0
  }

  /// Folds the log when the committer is `idle`, or when it has grown past `foldBytes`.
  public func foldIfDue(idle: Bool) throws -> Bool {
    guard unfolded.load(ordering: .acquiring) > 0 else { return false }
    return try access.withLock { _ in
      guard idle || unfoldedBytes >= Self.foldBytes else { return false }
      try foldLocked()
      return true
    }
  }

  /// Brings the tables up to date before a read of history: the log is not read there.
  func foldForRead() throws {
    guard unfolded.load(ordering: .acquiring) > 0 else { return }
    try access.withLock { _ in try foldLocked() }
  }

  /// Counts what the log holds, when the file is opened.
  func countUnfolded() throws {
    let rows = try writer.prepare("SELECT count(*), total(length(record)) FROM commit_log").rows { row in
      (row.int(0), Int(row.double(1)))
    }
    unfolded.store(rows.first?.0 ?? 0, ordering: .releasing)
    unfoldedBytes = rows.first?.1 ?? 0
  }

  /// What the log holds laid over `snapshot`, read from the tables: for a load that may not
  /// write (after a failed commit), which therefore cannot fold first.
  func overlayCommitLog(on snapshot: inout ShopSnapshot, keysSince cutoff: Double) throws {
    for (_, record) in try commitRecords() {
      for (item, level) in record.stock { snapshot.stock[item] = level }
      for key in record.keys where key.placed >= cutoff {
        let orderKey = OrderKey(user: key.user, key: key.key)
        snapshot.orderKeys.removeAll { $0.key == orderKey }
        snapshot.orderKeys.append(
          OrderKeyRecord(
            key: orderKey, orderID: key.orderID, requestedText: key.requested,
            placed: Date(timeIntervalSince1970: key.placed)))
      }
      snapshot.counters = record.counters
    }
  }
}

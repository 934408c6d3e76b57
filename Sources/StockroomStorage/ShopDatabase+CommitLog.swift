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
    try hot.appendCommit.execute(binding: 1, blob: record)
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
    let records = try writer.prepare("SELECT seq, record FROM commit_log ORDER BY seq").rows { row in
      (sequence: row.int(0), bytes: row.blob(1))
    }
    guard let last = records.last else { return }
    try writeRows(of: records, counters: true)
    try hot.deleteCommits.bind(1, last.sequence)
    try hot.deleteCommits.execute()
  }

  /// Writes the rows of `records`, in their order, into the tables: the stock levels, ledger
  /// lines, orders and receipts, and with `counters` the counters of the last. The fold's, and
  /// a direct write's (`write`), which encodes its batch's rows as a record too, so that these
  /// tables have one writer and one encoding. In the caller's transaction, `access` held.
  func writeRows(of records: [(sequence: Int, bytes: [UInt8])], counters writingCounters: Bool) throws {
    var stock: [String: StockLevel] = [:]
    var counters = ShopCounters()
    // Rows a failed fold left unwritten are not this fold's.
    for rows in hot.foldedRows { rows.discard() }
    for record in records { counters = try fold(record.bytes, sequence: record.sequence, stock: &stock) }
    for rows in hot.foldedRows { try rows.flush() }
    for (item, level) in stock { try saveStock(item, level) }
    if writingCounters { try saveCounters(counters) }
  }

  /// Adds one record's ledger lines, orders and receipts to the rows being inserted, their text
  /// still the record's bytes (decoding every field into a string first was a third of a fold);
  /// leaves its stock levels in `stock`, for one row per item per fold, and returns its counters.
  /// The layout is `CommitRecord`'s.
  private func fold(_ bytes: [UInt8], sequence: Int, stock: inout [String: StockLevel]) throws -> ShopCounters {
    var input = RecordReader(bytes, sequence: sequence)
    try CommitRecord.readFormat(&input)
    for _ in 0..<(try input.count()) {
      let (item, level) = try CommitRecord.readStock(&input)
      stock[item] = level
    }
    for rows in hot.foldedRows {
      for _ in 0..<(try input.count()) { try rows.addRow(from: &input) }
    }
    return try CommitRecord.readCounters(&input)
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

import Foundation
import StockroomDomain

/// One group commit as the commit log (`commit_log`) keeps it until a fold writes it into the
/// shop's tables: the stock levels it left, its ledger lines, its orders, the receipts of its
/// keyed orders and the counters after it, in one row. Appending that row is all a commit
/// writes, about one page, where writing each table's rows touched seven (see
/// `ShopDatabase+CommitLog`).
///
/// Only the kinds of change that make up the traffic go here (orders, restocks, stocktakes); a
/// batch with anything else is written to the tables directly, after a fold.
///
/// The record starts with `RecordLayout.commitRows` (1, which every record of this layout has
/// had since the log began); a later layout gets a new number there, and a server meeting a
/// number it does not know refuses the file instead of guessing.
struct CommitRecord {
  var stock: [(item: String, level: StockLevel)] = []
  var ledger: [LedgerEntry] = []
  /// An order as its row holds it: the lines and what it took already in `RowText`.
  var orders: [(id: Int, user: String, placed: Double, lines: String, taken: String)] = []
  /// A keyed order's receipt as its `order_keys` row holds it.
  var keys: [(user: String, key: String, orderID: Int, requested: String, levels: String, placed: Double)] = []
  var counters: ShopCounters

  /// Whether the log can hold `batch`: stock movements and orders, no products, diary entries,
  /// accounts or removed items.
  static func holds(_ batch: JournalBatch) -> Bool {
    batch.deletedStock.isEmpty && batch.products.isEmpty && batch.deletedProducts.isEmpty && batch.diary.isEmpty
      && batch.deletedDiary.isEmpty && batch.diaryNumbers.isEmpty && batch.accounts.isEmpty
      && batch.deletedAccounts.isEmpty && batch.counters != nil
  }

  /// The record of `batch`, which the log holds (`holds`).
  static func encode(_ batch: JournalBatch) -> [UInt8] {
    var out = RecordWriter(capacity: 64 + 160 * batch.count)
    out.layout(.commitRows)
    out.unsigned(UInt64(batch.stock.count))
    for (item, level) in batch.stock {
      out.text(item)
      out.int(level.initial)
      out.int(level.restocked)
      out.int(level.corrected)
      out.int(level.taken)
      out.int(level.current)
    }
    out.unsigned(UInt64(batch.ledger.count))
    for entry in batch.ledger {
      out.text(entry.item)
      out.int(entry.change)
      out.text(entry.cause)
      out.optionalInt(entry.orderID)
      out.text(entry.user)
      out.double(entry.at.timeIntervalSince1970)
    }
    out.unsigned(UInt64(batch.orders.count))
    for order in batch.orders {
      out.int(order.id)
      out.text(order.user)
      out.double(order.placed.timeIntervalSince1970)
      out.text { RowText.appendLines(order.lines, to: &$0) }
      out.text { ItemCount.appendListText(order.taken, to: &$0) }
    }
    out.unsigned(UInt64(batch.receipts.count { $0.key != nil }))
    for receipt in batch.receipts {
      guard let key = receipt.key else { continue }
      out.text(receipt.order.user)
      out.text(key)
      out.int(receipt.order.id)
      out.text { ItemCount.appendListText(receipt.requested, to: &$0) }
      out.text { ItemCount.appendListText(receipt.levels, to: &$0) }
      out.double(receipt.order.placed.timeIntervalSince1970)
    }
    for (_, value) in (batch.counters ?? ShopCounters()).metaRows { out.int(value) }
    return out.bytes
  }

  /// Reads the record numbered `sequence` in the log; throws `DamagedRow` for bytes that no
  /// version of Stockroom wrote.
  init(decoding bytes: [UInt8], sequence: Int) throws {
    var input = RecordReader(bytes, sequence: sequence)
    try Self.readFormat(&input)
    for _ in 0..<(try input.count()) { stock.append(try Self.readStock(&input)) }
    for _ in 0..<(try input.count()) {
      ledger.append(
        LedgerEntry(
          item: try input.text(), change: try input.int(), cause: try input.text(), orderID: try input.optionalInt(),
          user: try input.text(), at: Date(timeIntervalSince1970: try input.double())))
    }
    for _ in 0..<(try input.count()) {
      orders.append(
        (try input.int(), try input.text(), try input.double(), try input.text(), try input.text()))
    }
    for _ in 0..<(try input.count()) {
      keys.append(
        (try input.text(), try input.text(), try input.int(), try input.text(), try input.text(), try input.double()))
    }
    counters = try Self.readCounters(&input)
  }

  /// The first byte: refuses a layout this server does not know, or another log's.
  static func readFormat(_ input: inout RecordReader) throws {
    try input.layout(.commitRows)
  }

  /// One item's stock level.
  static func readStock(_ input: inout RecordReader) throws -> (item: String, level: StockLevel) {
    let item = try input.text()
    var level = StockLevel(initial: try input.int())
    level.restocked = try input.int()
    level.corrected = try input.int()
    level.taken = try input.int()
    level.current = try input.int()
    return (item, level)
  }

  /// The counters, the last field: bytes after them are damage.
  static func readCounters(_ input: inout RecordReader) throws -> ShopCounters {
    let counters = try ShopCounters(metaValues: { try input.int() })
    guard input.atEnd else { throw input.damaged("bytes after the end") }
    return counters
  }
}

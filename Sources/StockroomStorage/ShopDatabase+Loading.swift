import Foundation
import StockroomDomain
import Synchronization

/// Loading the saved shop at start (and after a failed commit), checked only as far as costs
/// nothing at start-up; the whole-file checks are `verify`'s.
extension ShopDatabase {
  /// The saved shop, checked: every item's stock balances and agrees with its ledger.
  /// Catalogue items the file does not know yet are added with their catalogue stock.
  /// `persist` false reads only: after a failed commit the disk may refuse every write.
  public func load(catalog: Catalog, catalogJSON: String, limits: ShopLimits, persist: Bool = true) throws -> ShopState
  {
    try access.withLock { _ in
      if persist { try foldLocked() }
      return try loadLocked(catalog: catalog, catalogJSON: catalogJSON, limits: limits, persist: persist)
    }
  }

  private func loadLocked(catalog: Catalog, catalogJSON: String, limits: ShopLimits, persist: Bool) throws -> ShopState
  {
    var snapshot = ShopSnapshot()
    let stockRows = try writer.prepare("SELECT item, initial, restocked, corrected, taken, current FROM stock")
    for (item, level) in try stockRows.rows(
      [],
      { row in
        var level = StockLevel(initial: row.int(1))
        level.restocked = row.int(2)
        level.corrected = row.int(3)
        level.taken = row.int(4)
        level.current = row.int(5)
        return (row.text(0), level)
      })
    {
      snapshot.stock[item] = level
    }
    snapshot.products = try writer.prepare(
      "SELECT id, name, description, price, currency, discount, seller, created, updated FROM products ORDER BY seq"
    ).rows { row in
      guard let currency = Currency(rawValue: row.text(4)) else {
        throw DamagedRow("currency of product \(row.text(0))", row.text(4))
      }
      return Product(
        id: row.text(0), name: row.text(1), description: row.text(2),
        price: Money(minorUnits: row.int(3), currency: currency),
        discount: try RowText.discount(from: row.optionalText(5), currency: currency), seller: row.text(6),
        created: Date(timeIntervalSince1970: row.double(7)), updated: Date(timeIntervalSince1970: row.double(8)))
    }
    snapshot.diary = try writer.prepare("SELECT id, number, owner, title, body, created, updated FROM diary").rows {
      row in
      DiaryEntry(
        id: row.int(0), number: row.int(1), owner: row.text(2), title: row.text(3), body: row.text(4),
        created: Date(timeIntervalSince1970: row.double(5)), updated: Date(timeIntervalSince1970: row.double(6)))
    }
    for (owner, next) in try writer.prepare("SELECT owner, next FROM diary_numbers").rows(
      [],
      {
        ($0.text(0), $0.int(1))
      })
    {
      snapshot.diaryNumbers[owner] = next
    }
    snapshot.accounts = try Self.accounts(in: writer)
    // Orders stay in the file, where LIST orders reads them: parsing the newest 10,000 of 100
    // lines each took seconds of a restart. Memory holds only the orders made since.
    let cutoff = Date().addingTimeInterval(-limits.orderKeyRetention).timeIntervalSince1970
    // Only what recognises a retry: its receipt is read from the file when one comes.
    snapshot.orderKeys = try writer.prepare(
      "SELECT user, key, order_id, requested, placed FROM order_keys WHERE placed >= ? ORDER BY placed, order_id"
    ).rows([.real(cutoff)]) { row in
      OrderKeyRecord(
        key: OrderKey(user: row.text(0), key: row.text(1)), orderID: row.int(2),
        requestedText: row.text(3), placed: Date(timeIntervalSince1970: row.double(4)))
    }
    var counters = ShopCounters()
    let meta = try writer.prepare("SELECT key, value FROM meta").rows { ($0.text(0), $0.int(1)) }
    for (key, value) in meta { counters.setMeta(key, to: value) }
    snapshot.counters = counters
    // Empty unless this load may not write, and so could not fold.
    try overlayCommitLog(on: &snapshot, keysSince: cutoff)
    try verifyEquations(snapshot.stock)
    let added = ShopState.newItems(in: catalog, comparedWith: snapshot)
    let state = ShopState(catalog: catalog, limits: limits, restoring: snapshot)
    guard persist else { return state }
    try writer.transaction {
      for item in added { try saveStock(item, state.level(of: item)!) }
      try statement("INSERT OR REPLACE INTO catalog(id, json, loaded_at) VALUES (1, ?, ?)").run([
        .text(catalogJSON), .real(Date().timeIntervalSince1970),
      ])
    }
    return state
  }

  /// Refuses a store whose stock does not add up, naming the first item that does not. Reads
  /// only the stock rows, so it costs nothing at start-up; the ledger is checked by `verify`.
  private func verifyEquations(_ stock: [String: StockLevel]) throws {
    for (item, level) in stock.sorted(by: { $0.key < $1.key }) {
      guard level.balances, level.current >= 0 else {
        throw StorageError(
          "\(path) is damaged: the stock of \(item) does not balance: initial \(level.initial) + restocked "
            + "\(level.restocked) - corrected \(level.corrected) - taken \(level.taken) is not the current "
            + "\(level.current). \(Self.restoreAdvice)")
      }
    }
  }
}

/// Where a durable shop's history is read: the ledger, the orders memory no longer holds, and
/// the receipts of keyed orders. The engine answers STOCKTAKE, LIST orders and a keyed retry
/// from it, and runs its whole-store check, without knowing which store keeps it: the storage
/// layer's journals (SQLite's file, PostgreSQL's database) implement it, and the engine is
/// handed one by its change path.
///
/// The reads may come from any thread at any time.
public protocol ShopHistory: AnyObject, Sendable {
  /// What the log and INFO name it by: a file's path, or a database URL without its password.
  var location: String { get }
  /// Which store this is, for the log and INFO.
  var kind: JournalKind { get }

  /// The whole-store checks that take long (every item's stock against its ledger).
  func verify() throws

  /// One item's ledger, newest first, and how many entries it has in all.
  func ledger(of item: String, paging: Paging) throws -> (entries: [LedgerEntry], total: Int)
  /// `user`'s orders older than order `below`, newest first, `limit` after skipping `offset`,
  /// and how many there are in all.
  func orders(of user: String, below: Int, offset: Int, limit: Int) throws -> (orders: [Order], total: Int)
  /// Orders with ids from `low` through `high`, newest first.
  func orders(from low: Int, through high: Int) throws -> [Order]
  /// The receipt of a keyed order, as its first answer gave it; nil when the key is not kept.
  func receipt(of key: OrderKey) throws -> OrderReceipt?
}

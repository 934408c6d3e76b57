import Foundation
import StockroomDomain

/// Where a durable shop is kept: the server loads the shop from it at start, the committer
/// writes each group commit to it, and the commands that read history (STOCKTAKE, LIST orders, a
/// keyed retry's receipt) read it there. SQLite (`ShopDatabase`) and PostgreSQL
/// (`PostgresShopDatabase`) keep it; the server does not know which.
///
/// `write`, `probe`, `syncIfDue` and `expireKeys` are the committer's, on its one thread; the
/// reads may come from any thread at any time.
public protocol ShopJournal: AnyObject, Sendable {
  /// What the log and INFO name it by: a file's path, or a database URL without its password.
  var location: String { get }
  /// Which store this is, for the log and INFO.
  var kind: JournalKind { get }

  /// The saved shop, checked; catalogue items it does not know yet are added with their
  /// catalogue stock unless `persist` is false (after a failed commit, when writes may fail).
  func load(catalog: Catalog, catalogJSON: String, limits: ShopLimits, persist: Bool) throws -> ShopState
  /// The whole-store checks that take long (every item's stock against its ledger).
  func verify() throws

  /// Writes one group commit in one transaction: all of it or none.
  func write(_ batch: JournalBatch) throws
  /// A small write, to learn whether writing works again after a failure.
  func probe() throws
  /// Forces what was written to stable storage when the fsync policy's interval has passed.
  func syncIfDue(now: Date) throws
  /// What a clean stop should leave (SQLite folds its log into the file).
  func checkpoint() throws
  /// Drops order keys past their retention.
  func expireKeys(olderThan cutoff: Date) throws
  /// Brings tables derived from a log of commits up to date when it is time (SQLite's commit
  /// log; nothing for PostgreSQL, which writes its rows in each commit). `idle`: the committer has
  /// had nothing to write for a while. Returns whether it folded.
  func foldIfDue(idle: Bool) throws -> Bool

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

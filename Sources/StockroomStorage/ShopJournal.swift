import Foundation
import StockroomDomain

/// Where a durable shop is kept: the server loads the shop from it at start, the committer
/// writes each group commit to it, and the commands that read history (STOCKTAKE, LIST orders, a
/// keyed retry's receipt) read it there, through the `ShopHistory` it refines. SQLite
/// (`ShopDatabase`) keeps it; PostgreSQL (`PostgresShopDatabase`) is only a `ShopHistory`, since
/// its shared writer writes through a transaction of its own. The server does not know which.
///
/// `write`, `probe`, `syncIfDue` and `expireKeys` are the committer's, on its one thread; the
/// reads may come from any thread at any time.
public protocol ShopJournal: ShopHistory {
  /// The saved shop, checked; catalogue items it does not know yet are added with their
  /// catalogue stock unless `persist` is false (after a failed commit, when writes may fail).
  func load(catalog: Catalog, catalogJSON: String, limits: ShopLimits, persist: Bool) throws -> ShopState

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
  /// log). `idle`: the committer has had nothing to write for a while. Returns whether it folded.
  func foldIfDue(idle: Bool) throws -> Bool
}

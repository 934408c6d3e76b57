import StockroomDomain

/// The one way a change goes from a request to the shop and its store, and back as an answer:
/// submitted, committed, answered.
///
/// Three paths implement it, with one reply semantics: each applies the change through
/// `LockedShop.apply`, the reply is written from what it did, and the reply is held until the
/// change is on disk (`CommitTicket`), while the connection goes on taking requests that cannot
/// depend on an unanswered change. `MemoryChanges`: no disk, applied and answered at once.
/// In the persistence target (`StockroomPersistence`), which drives the databases so that the
/// engine does not: `Committer` (SQLite: applied at once, held until its group commit is on
/// disk) and `SharedWriter` (PostgreSQL shared by several nodes: queued, applied on the
/// writer's thread in its next transaction to the shop as the database holds it, answered once
/// that commits, held until its flush is confirmed). Each is given the `LockedShop` it changes
/// when it is made, and calls into it; the shop never calls back, and nothing is assigned after
/// construction. This protocol and `ShopHistory` are all the engine knows of a store. The walk
/// of one `ORDER` through both is in docs/architecture.md.
package protocol ChangePath: AnyObject, Sendable {
  /// Where history (ledger, old orders, receipts) is read; nil in memory.
  var history: (any ShopHistory)? { get }
  /// What the writer of the changes counts; nil in memory.
  var commitFigures: CommitFigures? { get }
  /// How this node stands with a store shared by several; nil unless it is one.
  var sharedFigures: SharedFigures? { get }

  /// The commit of the newest change applied to the shop, while it is still running: a read's
  /// reply waits for it, since the read may show that change. nil when every change is saved.
  var uncommitted: CommitTicket? { get }
  /// What a read of the shop must wait for before it runs, so that it reflects every change
  /// committed anywhere before it arrived; nil when the shop already does (one node, or
  /// `--reads cached`).
  func readIndex() -> ReadIndexTicket?

  /// One item's recent ledger, newest first, where there is no history to read it from (in
  /// memory); empty otherwise.
  func recentLedger(of item: String) -> [LedgerEntry]

  /// Starts the path's own threads; returns once they run.
  func start()
  /// Applies `mutation` or queues it, or throws the shop's refusal (a rule, a read-only store).
  /// How its reply is written is the request layer's business (`ChangeRequest`), not the path's.
  func submit(_ mutation: Mutation) throws(ShopError) -> SubmittedChange
  /// An event loop has ended a round of work (`EventLoop.roundEnd`): what that loop's thread
  /// submitted during it may be committed now. A path that gathers group commits waits for
  /// this before it writes what such a thread submitted, so that one commit takes every change
  /// a round read; a change submitted on any other thread is written without waiting for it.
  func roundEnded()
  /// Commits what it holds, then stops its threads: after this nothing of it writes, so once
  /// the `Shop` is released the files are free to be opened again (a restart in a test).
  func stop()
}

extension ChangePath {
  package var sharedFigures: SharedFigures? { nil }
  package func readIndex() -> ReadIndexTicket? { nil }
  package func recentLedger(of item: String) -> [LedgerEntry] { [] }
  package func roundEnded() {}
}

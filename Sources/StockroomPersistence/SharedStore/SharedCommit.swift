import StockroomDomain
import StockroomEngine

/// One transaction of this node's on a shared store, committed (its changes already answered,
/// their replies held for `durable`), with what is told of it once it is known to be on disk:
/// `durable` itself, its events (replayed changes first) and its figures.
struct SharedCommit: Sendable {
  /// What reads showing this transaction's changes wait for.
  let durable: CommitTicket
  let events: [StockEvent]
  /// The newest order it holds, whose receipts are settled once it is told.
  let newestOrder: Int?
  /// The changes it made, as the commit figures count them.
  let made: Int
  /// When it began (`EngineClock.now()`), for the commit figures.
  let started: UInt64
  /// False when it neither made a change nor replayed one: nothing of it can be short of disk.
  let needsFlush: Bool
}

@testable import stockroom_bench

/// A recorded history of one item's stock, as clients saw it: orders that each took one and
/// were told the level after, and reads that were told the level, each with when it was sent and
/// when its reply arrived (one monotonic clock). `verdict` checks it with `stockroom-bench
/// linearizable`'s checker (Wing and Gong's search with Lowe's memoisation): linearizable when
/// one order of all its operations keeps every real-time bound and a level starting at
/// `initial` allows each.
struct LevelHistory: Sendable {
  struct Operation: Sendable, CustomStringConvertible {
    enum Kind: Sendable { case order, read }
    var kind: Kind
    /// The level after the order, or the level read.
    var level: Int
    var sent: ContinuousClock.Instant
    var answered: ContinuousClock.Instant
    /// Who asked, and where (for the report).
    var client: String

    var description: String { "\(client) \(kind == .order ? "ORDER ->" : "STOCK =") \(level)" }
  }

  /// The level before any order of the history.
  var initial: Int
  var operations: [Operation] = []

  /// The operations as the checker reads them: times in nanoseconds since the first send.
  var checked: [HistoryOperation] {
    guard let origin = operations.map(\.sent).min() else { return [] }
    func nanoseconds(_ instant: ContinuousClock.Instant) -> Int {
      let (seconds, attoseconds) = (instant - origin).components
      return Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
    }
    return operations.enumerated().map { index, operation in
      HistoryOperation(
        operation.kind == .order ? .order : .read, value: operation.level, start: nanoseconds(operation.sent),
        end: nanoseconds(operation.answered), line: index + 1, client: operation.client)
    }
  }

  /// Whether the history is linearizable, with a witness when it is not.
  func verdict() -> LinearizabilityVerdict {
    LinearizabilityChecker(initial: initial, operations: checked).check()
  }
}

import Testing

@testable import stockroom_bench

/// `LinearizabilityChecker` on hand-made histories of one stock level: what a pairwise check
/// misses, stale reads, reads going back, reads of the future, and concurrent histories that
/// are linearizable only in an order the search has to find.
@Suite("the linearizability checker on hand-made histories", .timeLimit(.minutes(30)))
struct LinearizabilityCheckerTests {
  static func order(_ value: Int, _ start: Int, _ end: Int, quantity: Int? = nil) -> HistoryOperation {
    HistoryOperation(.order, value: value, quantity: quantity, start: start, end: end)
  }

  static func read(_ value: Int, _ start: Int, _ end: Int) -> HistoryOperation {
    HistoryOperation(.read, value: value, start: start, end: end)
  }

  static func verdict(_ initial: Int, _ operations: [HistoryOperation]) -> LinearizabilityVerdict {
    let numbered = operations.enumerated().map { index, operation in
      var operation = operation
      operation.line = index + 1
      return operation
    }
    return LinearizabilityChecker(initial: initial, operations: numbered).check()
  }

  @Test("issue 43's history: O must precede X and X precede R, yet O starts after R ends")
  func issueCounterexample() throws {
    // X = order -> 8 over [0, 10]; R = read 8 over [1, 2]; O = order -> 9 over [3, 4].
    let verdict = Self.verdict(10, [Self.order(8, 0, 10), Self.read(8, 1, 2), Self.order(9, 3, 4)])
    let witness = try #require(verdict.witness)
    #expect(witness.placed == 0 && witness.level == 10)
    #expect(witness.blocked.map(\.line) == [1, 2], "\(witness)")
    #expect(witness.bound?.line == 2, "\(witness)")
    #expect(witness.description.contains("line 2: read 8, from 1 to 2: it needs 8"), "\(witness)")
  }

  @Test("the same three operations with O sent before R was answered are linearizable: O, X, R")
  func counterexampleMadeConcurrent() throws {
    let verdict = Self.verdict(10, [Self.order(8, 0, 10), Self.read(8, 1, 3), Self.order(9, 2, 4)])
    guard case .linearizable(let order) = verdict else {
      Issue.record("\(verdict.witness.map(String.init(describing:)) ?? "")")
      return
    }
    #expect(order.map(\.line) == [3, 1, 2])
  }

  @Test("a stale read: an order acknowledged before the read was sent is missing from it")
  func staleRead() {
    #expect(!Self.verdict(10, [Self.order(9, 0, 2), Self.read(10, 3, 4)]).isLinearizable)
    // Overlapping the order, the same read may come first.
    #expect(Self.verdict(10, [Self.order(9, 0, 2), Self.read(10, 1, 4)]).isLinearizable)
  }

  @Test("a read going back: a later read shows a level an earlier one had seen pass")
  func readGoingBack() {
    let back = Self.verdict(10, [Self.order(9, 0, 10), Self.read(9, 1, 2), Self.read(10, 3, 4)])
    let witness = back.witness
    #expect(witness != nil)
    #expect(witness?.description.contains("line 3: read 10") == true, "\(String(describing: witness))")
    #expect(Self.verdict(10, [Self.order(9, 0, 10), Self.read(10, 1, 2), Self.read(9, 3, 4)]).isLinearizable)
  }

  @Test("a read of the future: a level shown before the order that made it was sent")
  func readOfTheFuture() {
    #expect(!Self.verdict(10, [Self.read(9, 0, 1), Self.order(9, 2, 3)]).isLinearizable)
    #expect(!Self.verdict(10, [Self.read(7, 0, 5), Self.order(9, 1, 2)]).isLinearizable)
  }

  @Test("orders' levels must each be one below the level before: a level given twice is refused")
  func levelsGivenTwice() {
    #expect(!Self.verdict(10, [Self.order(9, 0, 5), Self.order(9, 1, 6)]).isLinearizable)
    #expect(Self.verdict(10, [Self.order(8, 0, 5), Self.order(9, 1, 6)]).isLinearizable)
  }

  @Test("truly concurrent operations in an order found only by trying: linearizable")
  func concurrentHistories() {
    // Four orders all overlapping, answered in the reverse of their linearization, and reads
    // overlapping them that see every level on the way down.
    let orders = (0..<4).map { Self.order(9 - $0, 3 - $0, 20) }
    let reads = [Self.read(10, 0, 1), Self.read(8, 2, 30), Self.read(7, 5, 25), Self.read(6, 21, 22)]
    #expect(Self.verdict(10, orders + reads).isLinearizable)
    // Two clients' reads both seeing 9 then 8 while two orders are in flight.
    let twoReaders = [
      Self.order(9, 0, 10), Self.order(8, 0, 10), Self.read(9, 1, 2), Self.read(8, 3, 4), Self.read(9, 1, 2),
      Self.read(8, 3, 4),
    ]
    #expect(Self.verdict(10, twoReaders).isLinearizable)
    // ...but not when one reader sees 8 before the other, later, sees 9.
    let crossed = [Self.order(9, 0, 10), Self.order(8, 0, 10), Self.read(8, 1, 2), Self.read(9, 3, 4)]
    #expect(!Self.verdict(10, crossed).isLinearizable)
  }

  @Test("orders of several: an order that took 3 leaving 7 needs the level at 10")
  func quantities() {
    #expect(Self.verdict(10, [Self.order(7, 0, 1, quantity: 3), Self.read(7, 2, 3)]).isLinearizable)
    #expect(!Self.verdict(10, [Self.order(8, 0, 1, quantity: 3)]).isLinearizable)
    #expect(Self.verdict(10, []).isLinearizable)
  }
}

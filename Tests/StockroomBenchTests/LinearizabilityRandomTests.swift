import StockroomTestSupport
import Testing

@testable import stockroom_bench

/// `LinearizabilityChecker` against a brute-force search on random small histories (up to 8
/// operations, some linearizable, some made not), and on histories of 360 operations like the
/// ones `LinearizableReadTests` records.
@Suite("the linearizability checker against brute force", .timeLimit(.minutes(30)))
struct LinearizabilityRandomTests {
  /// A history that ran on a real counter (each operation takes effect at a point inside its
  /// interval), of `count` operations over `clients`-wide overlap, then with probability
  /// `spoil` one value changed by one or two.
  static func history(
    _ count: Int, initial: Int, spoil: Double, using random: inout SplitMix64
  ) -> [HistoryOperation] {
    var level = initial
    var operations: [HistoryOperation] = []
    var point = 0
    for index in 0..<count {
      point += Int.random(in: 1...4, using: &random)
      let start = point - Int.random(in: 0...6, using: &random)
      let end = point + Int.random(in: 0...6, using: &random)
      if Bool.random(using: &random) {
        let quantity = Int.random(in: 0..<5, using: &random) == 0 ? 2 : 1
        level -= quantity
        operations.append(
          HistoryOperation(.order, value: level, quantity: quantity, start: start, end: end, line: index + 1))
      } else {
        operations.append(HistoryOperation(.read, value: level, start: start, end: end, line: index + 1))
      }
    }
    if !operations.isEmpty && Double.random(in: 0..<1, using: &random) < spoil {
      let index = Int.random(in: 0..<operations.count, using: &random)
      operations[index].value += [-2, -1, 1, 2].randomElement(using: &random)!
    }
    return operations.shuffled(using: &random)
  }

  /// Whether some permutation of `pending` keeps real time and the counter's rules, trying
  /// every one (pruned only where a prefix already breaks either).
  static func bruteForce(level: Int, placed: [HistoryOperation], pending: [HistoryOperation]) -> Bool {
    if pending.isEmpty { return true }
    for (index, next) in pending.enumerated() {
      guard next.levelBefore == level, !placed.contains(where: { next.precedes($0) }) else { continue }
      var rest = pending
      rest.remove(at: index)
      if bruteForce(level: level - next.quantity, placed: placed + [next], pending: rest) { return true }
    }
    return false
  }

  /// Whether `order` is a permutation of `operations` that keeps real time and the rules.
  static func explains(_ order: [HistoryOperation], _ operations: [HistoryOperation], initial: Int) -> Bool {
    guard order.count == operations.count, Set(order.map(\.line)) == Set(operations.map(\.line)) else { return false }
    var level = initial
    for (index, operation) in order.enumerated() {
      guard operation.levelBefore == level, !order[..<index].contains(where: { operation.precedes($0) }) else {
        return false
      }
      level -= operation.quantity
    }
    return true
  }

  @Test("400 random histories of up to 8 operations: the checker agrees with brute force")
  func agreesWithBruteForce() {
    var verdicts = (linearizable: 0, not: 0)
    for seed in UInt64(1)...400 {
      var random = SplitMix64(seed: seed)
      let operations = Self.history(Int.random(in: 1...8, using: &random), initial: 6, spoil: 0.5, using: &random)
      let expected = Self.bruteForce(level: 6, placed: [], pending: operations)
      let verdict = LinearizabilityChecker(initial: 6, operations: operations).check()
      #expect(verdict.isLinearizable == expected, "seed \(seed): \(operations)")
      if case .linearizable(let order) = verdict {
        #expect(Self.explains(order, operations, initial: 6), "seed \(seed): \(order)")
        verdicts.linearizable += 1
      } else {
        verdicts.not += 1
      }
    }
    // Both answers must come up often, or the comparison proves little.
    #expect(verdicts.linearizable >= 100 && verdicts.not >= 50, "\(verdicts)")
  }

  @Test("360 operations from six overlapping clients: passes, and fails once a read is made stale")
  func largeHistories() throws {
    for seed in UInt64(1)...5 {
      var random = SplitMix64(seed: seed)
      var operations = Self.history(360, initial: 2000, spoil: 0, using: &random)
      let verdict = LinearizabilityChecker(initial: 2000, operations: operations).check()
      guard case .linearizable(let order) = verdict else {
        Issue.record("seed \(seed): \(verdict.witness.map(String.init(describing:)) ?? "")")
        continue
      }
      #expect(Self.explains(order, operations, initial: 2000), "seed \(seed)")
      // The read after the tenth order shows the level before it: stale by one.
      let line = try #require(order.dropFirst(order.count / 2).first { $0.kind == .read }).line
      let index = try #require(operations.firstIndex { $0.line == line })
      operations[index].value += 20
      let spoilt = LinearizabilityChecker(initial: 2000, operations: operations).check()
      #expect(
        spoilt.witness?.blocked.contains { $0.line == line } == true,
        "seed \(seed): \(String(describing: spoilt.witness))")
    }
  }
}

/// The state of one `LinearizabilityChecker` search: the operations by start, which are
/// linearized (a bit set), the counter, the order so far, the sets already tried, and the
/// furthest dead end (for the witness). A class so the recursion shares one copy of each.
final class LinearizabilitySearch {
  let initial: Int
  let operations: [HistoryOperation]
  private(set) var order: [Int] = []
  private var linearized: [UInt64]
  private var level: Int
  private var tried = Set<[UInt64]>()
  private var furthest: (order: [Int], level: Int, blocked: [Int], bound: Int?)?

  init(initial: Int, operations: [HistoryOperation]) {
    self.initial = initial
    // By start, so the candidates for next are a prefix of the pending ones.
    self.operations = operations.enumerated().sorted {
      ($0.element.start, $0.offset) < ($1.element.start, $1.offset)
    }.map(\.element)
    linearized = Array(repeating: 0, count: (operations.count + 63) / 64)
    level = initial
  }

  /// Whether the operations not yet linearized can all follow the ones that are.
  func run() -> Bool {
    if order.count == operations.count { return true }
    guard tried.insert(linearized).inserted else { return false }
    // Only an operation sent before every pending one was answered may come next.
    var bound: Int?
    for index in operations.indices where !isLinearized(index) {
      if bound.map({ operations[index].end < operations[$0].end }) ?? true { bound = index }
    }
    guard let bound else { return true }
    let latestStart = operations[bound].end
    var blocked: [Int] = []
    for index in operations.indices where !isLinearized(index) {
      let operation = operations[index]
      if operation.start > latestStart { break }
      guard operation.levelBefore == level else {
        blocked.append(index)
        continue
      }
      place(index)
      if run() { return true }
      unplace(index)
    }
    if order.count >= (furthest?.order.count ?? -1) && !blocked.isEmpty {
      furthest = (order, level, blocked, bound)
    }
    return false
  }

  func witness() -> LinearizabilityWitness {
    let found = furthest ?? (order: [], level: initial, blocked: [], bound: nil)
    return LinearizabilityWitness(
      total: operations.count, placed: found.order.count,
      lastPlaced: found.order.suffix(5).map { operations[$0] }, level: found.level,
      blocked: found.blocked.map { operations[$0] }, bound: found.bound.map { operations[$0] })
  }

  private func isLinearized(_ index: Int) -> Bool { linearized[index / 64] & (1 << UInt64(index % 64)) != 0 }

  private func place(_ index: Int) {
    linearized[index / 64] |= 1 << UInt64(index % 64)
    level -= operations[index].quantity
    order.append(index)
  }

  private func unplace(_ index: Int) {
    linearized[index / 64] &= ~(1 << UInt64(index % 64))
    level += operations[index].quantity
    order.removeLast()
  }
}

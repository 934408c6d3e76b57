/// Whether a history of one stock level is linearizable (Herlihy and Wing): whether its
/// operations can be put in one order that keeps every real-time bound (an operation answered
/// before another was sent comes first) and in which each is legal for a single counter that
/// starts at `initial`: an order that left `value` after taking `quantity` finds the counter at
/// `value + quantity` and leaves it at `value`; a read of `value` finds it at `value`.
///
/// The search is Wing and Gong's, with Lowe's memoisation: depth first, it linearizes next any
/// operation that no other pending one was answered before, and remembers every set of
/// linearized operations it has tried (the set fixes the counter, so it is the whole state), so
/// no state is explored twice. Operations that start at the instant another ends are treated as
/// concurrent (only `end < start` orders them), which errs on the side of passing.
struct LinearizabilityChecker: Sendable {
  var initial: Int
  var operations: [HistoryOperation]

  init(initial: Int, operations: [HistoryOperation]) {
    self.initial = initial
    self.operations = operations
  }

  func check() -> LinearizabilityVerdict {
    let search = LinearizabilitySearch(initial: initial, operations: operations)
    if search.run() {
      return .linearizable(order: search.order.map { search.operations[$0] })
    }
    return .notLinearizable(search.witness())
  }
}

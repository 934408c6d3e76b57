/// A recorded history of one item's stock, as clients saw it: orders that each took one and
/// were told the level after, and reads that were told the level, each with when it was sent and
/// when its reply arrived (one monotonic clock). `violations` checks it against every real-time
/// bound a linearizable store must meet (Herlihy and Wing's definition, specialised to a level
/// that only falls by one per order, which makes each order's place in the single order known
/// from its reply, so the check is exact instead of a search as in Wing and Gong's).
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

  /// Every way the history breaks linearizability, in words; empty when it is linearizable.
  func violations() -> [String] {
    let orders = operations.filter { $0.kind == .order }
    let reads = operations.filter { $0.kind == .read }
    var found: [String] = []
    // Orders take one each in one order: their levels are initial-1, initial-2, ... once each.
    let levels = orders.map(\.level).sorted(by: >)
    if levels != Array((initial - orders.count..<initial).reversed()) {
      found.append("the orders' levels are not one each below \(initial): \(levels.prefix(20))")
    }
    let orderAt = Dictionary(orders.map { ($0.level, $0) }, uniquingKeysWith: { first, _ in first })
    for (earlier, later) in pairs(orders) where later.level > earlier.level {
      found.append("\(later) came after \(earlier) had been answered, yet sits before it")
    }
    for read in reads {
      // Everything answered before the read was sent must show in it.
      if let missed = orders.first(where: { $0.answered < read.sent && $0.level < read.level }) {
        found.append("\(read) misses \(missed), acknowledged before the read was sent (a stale read)")
      }
      // What it shows must have been asked for before the read was answered.
      if read.level != initial {
        if let order = orderAt[read.level] {
          if order.sent > read.answered { found.append("\(read) shows \(order), sent only after the read's reply") }
        } else {
          found.append("\(read) shows a level no order made")
        }
      }
    }
    for (earlier, later) in pairs(reads) where later.level > earlier.level {
      found.append("\(later) was sent after \(earlier) was answered, yet shows an older level")
    }
    return found
  }

  /// Every pair of operations the first of which was answered before the second was sent.
  private func pairs(_ operations: [Operation]) -> [(Operation, Operation)] {
    let bySent = operations.sorted { $0.sent < $1.sent }
    var result: [(Operation, Operation)] = []
    for earlier in operations {
      for later in bySent where later.sent > earlier.answered { result.append((earlier, later)) }
    }
    return result
  }
}

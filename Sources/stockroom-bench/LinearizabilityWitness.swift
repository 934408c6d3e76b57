/// Why a history is not linearizable, from the furthest the search got: how many operations it
/// could put in one order (`placed`, the last few in `lastPlaced`), the level they leave, the
/// operations that could come next by real time yet none of which the level allows (`blocked`),
/// and the operation whose end keeps every other from coming first (`bound`).
struct LinearizabilityWitness: Sendable, CustomStringConvertible {
  var total: Int
  var placed: Int
  var lastPlaced: [HistoryOperation]
  var level: Int
  var blocked: [HistoryOperation]
  var bound: HistoryOperation?

  var description: String {
    var lines = [
      "not linearizable: at most \(placed) of \(total) operations fit in one order;"
        + " after them the level is \(level), and no operation that may come next fits it:"
    ]
    for operation in blocked {
      let needs =
        operation.kind == .order ? "it needs the level at \(operation.levelBefore)" : "it needs \(operation.value)"
      lines.append("  \(operation): \(needs)")
    }
    if let bound, blocked.count < total - placed {
      lines.append(
        "  every other operation left was sent after \(bound.line == 0 ? "\(bound)" : "line \(bound.line)")"
          + " was answered (at \(bound.end)), so cannot come before it")
    }
    if !lastPlaced.isEmpty {
      lines.append("the order found so far ends with:")
      lines += lastPlaced.map { "  \($0)" }
    }
    return lines.joined(separator: "\n")
  }
}

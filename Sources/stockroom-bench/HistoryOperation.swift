/// One operation of a recorded history of a single stock level, as `stockroom-bench
/// linearizable` reads it: an order that took `quantity` and was told the level it left, or a
/// read that was told the level, with when it was sent and when its answer arrived (integers
/// of one monotonic clock, in any unit).
struct HistoryOperation: Sendable, Equatable, CustomStringConvertible {
  enum Kind: Sendable, Equatable { case order, read }

  var kind: Kind
  /// The level the order left, or the level the read saw.
  var value: Int
  /// How much an order took (1 unless the history says otherwise); 0 for a read.
  var quantity: Int
  var start: Int
  var end: Int
  /// Where it came from, for the witness: the line of the history (1-based), and who asked.
  var line: Int
  var client: String?

  init(_ kind: Kind, value: Int, quantity: Int? = nil, start: Int, end: Int, line: Int = 0, client: String? = nil) {
    self.kind = kind
    self.value = value
    self.quantity = quantity ?? (kind == .order ? 1 : 0)
    self.start = start
    self.end = end
    self.line = line
    self.client = client
  }

  /// The level this operation needs to find at its linearization point.
  var levelBefore: Int { value + quantity }

  /// Whether `self` was answered before `other` was sent, so must come first in any order.
  func precedes(_ other: HistoryOperation) -> Bool { end < other.start }

  var description: String {
    let what =
      kind == .order
      ? "order\(quantity == 1 ? "" : " of \(quantity)") -> \(value)" : "read \(value)"
    let who = client.map { " by \($0)" } ?? ""
    return "line \(line): \(what)\(who), from \(start) to \(end)"
  }
}

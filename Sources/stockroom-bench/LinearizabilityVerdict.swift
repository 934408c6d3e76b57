/// What `LinearizabilityChecker` found: an order that explains the history, or a witness that
/// none exists.
enum LinearizabilityVerdict: Sendable {
  /// Every operation, in an order that keeps the real-time bounds and the counter's rules.
  case linearizable(order: [HistoryOperation])
  case notLinearizable(LinearizabilityWitness)

  var isLinearizable: Bool {
    if case .linearizable = self { return true }
    return false
  }

  var witness: LinearizabilityWitness? {
    if case .notLinearizable(let witness) = self { return witness }
    return nil
  }
}

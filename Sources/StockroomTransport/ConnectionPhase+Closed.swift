import StockroomEngine

extension ConnectionPhase {
  /// By case, not through `Equatable`'s witness (a call across modules, every request).
  var isClosed: Bool {
    if case .closed = self { return true }
    return false
  }
}

import StockroomEngine

/// The engine hands finished work back to a connection's loop through `LoopExecutor`.
extension EventLoop: LoopExecutor {
  package func executeLater(_ delay: Duration, _ task: @escaping @Sendable () -> Void) {
    _ = schedule(after: delay, task)
  }
}

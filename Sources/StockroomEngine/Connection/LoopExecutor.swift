/// Where a connection's work comes back to: its event loop, seen from the engine. Work done on
/// other threads (a commit, password hashing, history read from the database) ends by handing a
/// closure to the loop the connection lives on, as SwiftNIO's `EventLoop` protocol in NIOCore
/// lets a handler ignore which loop implementation runs it. The transport's loops conform; a
/// test harness can run the closures itself.
package protocol LoopExecutor: AnyObject, Sendable {
  /// Runs `task` on the loop's thread, after the tasks queued before it; false, and the task
  /// never runs, when the loop has stopped.
  @discardableResult
  func execute(_ task: @escaping @Sendable () -> Void) -> Bool

  /// Runs `task` on the loop's thread once `delay` has passed. Called on the loop's thread.
  func executeLater(_ delay: Duration, _ task: @escaping @Sendable () -> Void)
}

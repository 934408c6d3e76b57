/// One thread a `ThreadStarter` made, which its owner in the engine starts once and joins when
/// it stops.
///
/// A join must be safe from any thread, the joined one included: an owner's last reference can
/// go on its own thread (a commit's waiter that held the last connection, a pool job that held
/// the engine), and a stop that then waited for that thread to end would wait for itself. There
/// `join` returns false at once, and the thread ends when its body returns.
package protocol WorkerThread: Sendable {
  /// Starts `body` on the thread, and returns once it runs under its name, so a server that says
  /// it is up has every thread up. Called once.
  func start(_ body: @escaping @Sendable () -> Void)

  /// Waits until the body has returned, at most `timeout` (nil: however long); true once it has.
  /// Any number of callers may join. Called on the thread itself, returns false at once.
  @discardableResult
  func join(timeout: Duration?) -> Bool
}

extension WorkerThread {
  /// Waits however long the body takes to return; at once on the thread itself.
  package func join() {
    join(timeout: nil)
  }
}

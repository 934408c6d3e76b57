import StockroomSystem

/// How an `EventLoop` waits: on its own thread in `epoll_wait` (`EpollBackend`), or on a serial
/// Dispatch queue with a source per socket (`DispatchBackend`). The loop keeps what both share
/// (tasks, timers, handlers, shutdown); a backend only watches descriptors, wakes the loop, and
/// calls the loop's turn functions (`takeTurn`, `deliver`) from the one place it runs them.
package protocol LoopBackend: AnyObject {
  /// Starts serving `loop`; returns once it runs (a thread started and named, a queue made).
  func start(_ loop: EventLoop)
  /// Whether the caller is where the loop runs: its thread, or its queue.
  var inLoop: Bool { get }
  /// Another thread queued a task while the loop slept: make it take a turn.
  func wake()
  func watch(_ fd: Int32, generation: UInt32, interest: EventLoop.Interest) throws(Errno)
  func change(_ fd: Int32, generation: UInt32, interest: EventLoop.Interest) throws(Errno)
  /// Stops watching `fd`, which stays open.
  func forget(_ fd: Int32)
  /// Closes `fd`, already forgotten: at once, or once nothing watches it any more.
  func close(_ fd: Int32)
  /// The loop ran its last turn: release what watches descriptors and time.
  func finish()
}

/// A read on a node of a shared store, waiting until the node's cache holds every change
/// committed anywhere before the read arrived (etcd's ReadIndex): the shared writer learns the
/// store's change position after the read was queued, replays up to it, then lets every read
/// that waited for that position go together.
///
/// Like password work, the connection answers nothing more until it is done; the
/// read itself runs afterwards, on the connection's loop, from the cache.
package final class ReadIndexTicket: Sendable {
  package enum Result: Sendable, Equatable {
    /// The cache holds every change committed before the read arrived.
    case current
    /// The store could not be reached: the read is answered from the cache, which may be behind.
    case unconfirmed
  }

  private let outcome = OneShotResult<Result>()
  private let writer: any ChangeQueue

  package init(writer: any ChangeQueue) {
    self.writer = writer
  }

  /// nil until the writer has let it go.
  package var result: Result? { outcome.value }

  /// Queues the read with its writer; `done` runs on `loop` once it may be answered.
  package func run(on loop: any LoopExecutor, done: @escaping @Sendable () -> Void) {
    outcome.whenGiven { loop.execute(done) }
    writer.enqueue(self)
  }

  /// Called once, by the writer.
  package func finish(_ result: Result) {
    outcome.give(result)
  }
}

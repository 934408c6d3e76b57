import StockroomDomain

/// One change on its way through a shared store's writer, and its result once committed.
///
/// The connection answers nothing more until it is done (like password work), so the replies
/// on a connection stay in request order and a read after a change sees it.
package final class ChangeTicket: Sendable {
  package enum Result: Sendable {
    /// Applied and committed.
    case applied(Applied)
    /// The shop's rules refused it; nothing was changed.
    case refused(ShopError)
    /// It could not be committed; see the failure for whether it may have been.
    case failed(CommitFailure)
  }

  package let mutation: Mutation
  private let writer: any ChangeQueue
  private let outcome = OneShotResult<Result>()

  package init(_ mutation: Mutation, writer: any ChangeQueue) {
    self.mutation = mutation
    self.writer = writer
  }

  /// nil until the writer is done with it.
  package var result: Result? { outcome.value }

  /// Hands the change to its writer; `done` runs on `loop` once the result is in.
  package func run(on loop: any LoopExecutor, done: @escaping @Sendable () -> Void) {
    run(done: { loop.execute(done) })
  }

  /// Hands the change to its writer; `done` runs on whichever thread finishes it.
  package func run(done: @escaping @Sendable () -> Void) {
    outcome.whenGiven(done)
    writer.enqueue(self)
  }

  /// Called once, by the writer.
  package func finish(_ result: Result) {
    outcome.give(result)
  }
}

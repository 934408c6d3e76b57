import StockroomDomain

/// One change on its way through a shared store's writer, and its result once the writer has
/// applied it.
///
/// The writer answers as soon as its transaction has committed, with the commit the reply then
/// waits for, as a reply on any other store waits for its group commit: on disk, or failed. The
/// connection meanwhile goes on taking requests that cannot depend on the change (more changes),
/// and holds the others until it is answered (`ConnectionCore`).
package final class ChangeTicket: Sendable {
  package enum Result: Sendable {
    /// Applied and committed; the reply waits for the ticket's outcome (on disk, or failed) when
    /// there is one.
    case applied(Applied, CommitTicket?)
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

import StockroomDomain
import Synchronization

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

  package let request: ChangeRequest
  private let state = Mutex<(result: Result?, done: (@Sendable () -> Void)?)>((nil, nil))

  package init(_ request: ChangeRequest) {
    self.request = request
  }

  package var mutation: Mutation { request.mutation }

  /// nil until the writer is done with it.
  package var result: Result? { state.withLock { $0.result } }

  /// Hands the change to `writer`; `done` runs on `loop` once the result is in.
  package func run(on loop: any LoopExecutor, writer: SharedWriter, done: @escaping @Sendable () -> Void) {
    run(writer: writer, done: { loop.execute(done) })
  }

  /// Hands the change to `writer`; `done` runs on whichever thread finishes it.
  package func run(writer: SharedWriter, done: @escaping @Sendable () -> Void) {
    state.withLock { $0.done = done }
    writer.submit(self)
  }

  /// Called once, by the writer.
  package func finish(_ result: Result) {
    let done = state.withLock { state -> (@Sendable () -> Void)? in
      guard state.result == nil else { return nil }
      state.result = result
      defer { state.done = nil }
      return state.done
    }
    done?()
  }
}

import StockroomProtocol
import Synchronization

/// A reply that reads history from the database (STOCKTAKE's ledger, older orders, a keyed
/// order's first receipt), written on the history pool so that a slow query never stalls the
/// event loop and everyone else on it.
///
/// Like password work, the connection answers nothing more until it is done, so replies keep
/// their order.
package final class ReadTicket: Sendable {
  package enum Result: Sendable {
    case written([UInt8])
    case failed(any Error)
    /// The pool's queue was full; nothing was read.
    case busy
  }

  private let body: @Sendable (inout ReplyEncoder) throws -> Void
  private let state = Mutex<Result?>(nil)

  package init(_ body: @escaping @Sendable (inout ReplyEncoder) throws -> Void) {
    self.body = body
  }

  /// nil until the reply is written.
  package var result: Result? { state.withLock { $0 } }

  /// Writes the reply on `pool` and calls `done` on `loop` once it is there.
  package func run(on loop: any LoopExecutor, pool: JobPool, done: @escaping @Sendable () -> Void) {
    let accepted = pool.submit { [self] in
      var out = ReplyEncoder(capacity: 1024)
      do {
        try body(&out)
        finish(.written(out.bytes))
      } catch {
        finish(.failed(error))
      }
      loop.execute(done)
    }
    if !accepted {
      finish(.busy)
      loop.execute(done)
    }
  }

  private func finish(_ result: Result) {
    state.withLock { $0 = result }
  }
}

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
  /// Whose share of the history pool the read takes (`JobPool`): the account, or a guest's address.
  package let source: ShareKey?

  package init(for source: ShareKey? = nil, _ body: @escaping @Sendable (inout ReplyEncoder) throws -> Void) {
    self.source = source
    self.body = body
  }

  /// nil until the reply is written.
  package var result: Result? { state.withLock { $0 } }

  /// Writes the reply on `pool` and calls `done` on `loop` once it is there (or once the pool
  /// said busy, at once or when a source with less took its place).
  package func run(on loop: any LoopExecutor, pool: JobPool, done: @escaping @Sendable () -> Void) {
    let busy: @Sendable () -> Void = { [self] in
      finish(.busy)
      loop.execute(done)
    }
    let accepted = pool.submit(
      from: source,
      { [self] in
        var out = ReplyEncoder(capacity: 1024)
        do {
          try body(&out)
          finish(.written(out.bytes))
        } catch {
          finish(.failed(error))
        }
        loop.execute(done)
        return .done
      }, displaced: busy)
    if !accepted {
      finish(.busy)
      loop.execute(done)
    }
  }

  private func finish(_ result: Result) {
    state.withLock { $0 = result }
  }
}

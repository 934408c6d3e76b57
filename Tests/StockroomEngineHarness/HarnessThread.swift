import StockroomEngine
import StockroomSystem

/// A `NamedThread` as the engine's `WorkerThread`. Wrapped rather than conformed: the server
/// target declares that conformance, and the server's tests link both.
struct HarnessThread: WorkerThread {
  let thread: NamedThread

  func start(_ body: @escaping @Sendable () -> Void) { thread.start(body) }

  @discardableResult
  func join(timeout: Duration?) -> Bool { thread.join(timeout: timeout) }
}

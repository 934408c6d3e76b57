import Foundation
import StockroomTransport
import Synchronization

extension EventLoop {
  /// Runs `body` on the loop (registrations must be made there) and returns once it has run,
  /// throwing what it threw: a registration the loop refused fails the test that made it,
  /// where `try?` left the test waiting for input its handler would never hear.
  func runAndWait(_ body: @escaping @Sendable () throws -> Void) throws {
    let outcome = Mutex<Result<Void, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    let queued = execute {
      let result = Result { try body() }
      outcome.withLock { $0 = result }
      done.signal()
    }
    guard queued else { throw LineClient.Failure(description: "loop \(name) refused the task: it had stopped") }
    guard done.wait(timeout: .now() + 20) == .success else {
      throw LineClient.Failure(description: "loop \(name) did not run the task within 20 s")
    }
    try outcome.withLock { $0 }?.get()
  }
}

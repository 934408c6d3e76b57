import Dispatch
import Synchronization

/// The promise that one group commit makes to every request in it: saved, or not saved and why.
final class CommitTicket: Sendable {
  enum Outcome: Sendable, Equatable {
    case committed
    case failed(String)
  }

  private struct Waiter {
    let queue: DispatchQueue
    let body: @Sendable () -> Void
  }

  private struct State {
    var outcome: Outcome?
    var waiters: [Waiter] = []
  }

  private let state = Mutex(State())

  /// nil while the commit is still running.
  var outcome: Outcome? { state.withLock { $0.outcome } }

  /// Runs `body` on `queue` once the commit has finished. Waiters on the same queue are run in
  /// one block, so a commit of fifty replies costs a hand-off per loop, not per connection.
  func whenDone(on queue: DispatchQueue, _ body: @escaping @Sendable () -> Void) {
    let done = state.withLock { state -> Bool in
      if state.outcome != nil { return true }
      state.waiters.append(Waiter(queue: queue, body: body))
      return false
    }
    if done { queue.async(execute: body) }
  }

  func complete(_ outcome: Outcome) {
    let waiters = state.withLock { state -> [Waiter] in
      guard state.outcome == nil else { return [] }
      state.outcome = outcome
      defer { state.waiters = [] }
      return state.waiters
    }
    var byQueue: [ObjectIdentifier: (DispatchQueue, [@Sendable () -> Void])] = [:]
    for waiter in waiters {
      byQueue[ObjectIdentifier(waiter.queue), default: (waiter.queue, [])].1.append(waiter.body)
    }
    for (queue, bodies) in byQueue.values {
      queue.async { for body in bodies { body() } }
    }
  }
}

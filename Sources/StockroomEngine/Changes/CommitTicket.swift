import StockroomSystem
import Synchronization

/// The promise that one group commit makes to every request in it: saved, or not saved and why.
package final class CommitTicket: Sendable {
  package enum Outcome: Sendable, Equatable {
    case committed
    case failed(CommitFailure)
  }

  private struct State {
    var outcome: Outcome?
    var waiters: [any CommitWaiter] = []
    /// Threads blocked in `waitForOutcome`.
    var blocked: [Semaphore] = []
  }

  private let state = Mutex(State())

  package init() {}

  /// nil while the commit is still running.
  package var outcome: Outcome? { state.withLock { $0.outcome } }

  /// Tells `waiter` on its loop once the commit has finished, once however many of its requests
  /// the commit holds. Waiters on the same loop are told in one task, so a commit of fifty
  /// replies costs a hand-off per loop, not per connection.
  package func notify(_ waiter: any CommitWaiter) {
    let done = state.withLock { state -> Bool in
      if state.outcome != nil { return true }
      // A client pipelining several changes into one commit is told once.
      if let last = state.waiters.last, last === waiter { return false }
      state.waiters.append(waiter)
      return false
    }
    if done { waiter.executor.execute { waiter.commitFinished() } }
  }

  /// Blocks the calling thread until the commit has finished, for a caller that is not an event
  /// loop (a tool, a test's fixture); a loop's connections hold their replies (`notify`) instead.
  package func waitForOutcome() -> Outcome {
    let finished = Semaphore()
    let done = state.withLock { state -> Outcome? in
      if state.outcome == nil { state.blocked.append(finished) }
      return state.outcome
    }
    if let done { return done }
    finished.wait()
    guard let outcome else { preconditionFailure("signalled only once finished") }
    return outcome
  }

  package func complete(_ outcome: Outcome) {
    let (waiters, blocked) = state.withLock { state -> ([any CommitWaiter], [Semaphore]) in
      guard state.outcome == nil else { return ([], []) }
      state.outcome = outcome
      defer { (state.waiters, state.blocked) = ([], []) }
      return (state.waiters, state.blocked)
    }
    for thread in blocked { thread.signal() }
    var byLoop: [ObjectIdentifier: (any LoopExecutor, [any CommitWaiter])] = [:]
    for waiter in waiters {
      byLoop[ObjectIdentifier(waiter.executor), default: (waiter.executor, [])].1.append(waiter)
    }
    for (loop, group) in byLoop.values {
      loop.execute { for waiter in group { waiter.commitFinished() } }
    }
  }
}

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
    for (loop, group) in Self.byLoop(waiters) {
      loop.execute { for waiter in group { waiter.commitFinished() } }
    }
  }

  /// The waiters grouped by the loop they are told on, in the order each loop first appears.
  /// A server has a loop or two, and most commits' waiters are all on one: that case hands the
  /// array on as it is. A dictionary keyed by loop cost about 1,100 instructions and two
  /// allocations a waiter (a durable ORDER at 50 connections, callgrind).
  static func byLoop(_ waiters: [any CommitWaiter]) -> [(any LoopExecutor, [any CommitWaiter])] {
    guard let first = waiters.first?.executor else { return [] }
    if waiters.allSatisfy({ $0.executor === first }) { return [(first, waiters)] }
    var groups: [(any LoopExecutor, [any CommitWaiter])] = []
    for waiter in waiters {
      let loop = waiter.executor
      if let index = groups.firstIndex(where: { $0.0 === loop }) {
        groups[index].1.append(waiter)
      } else {
        groups.append((loop, [waiter]))
      }
    }
    return groups
  }
}

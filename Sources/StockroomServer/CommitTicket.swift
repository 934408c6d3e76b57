import Synchronization

/// The promise that one group commit makes to every request in it: saved, or not saved and why.
final class CommitTicket: Sendable {
  enum Outcome: Sendable, Equatable {
    case committed
    case failed(String)
  }

  private struct Waiter {
    let loop: EventLoop
    let body: @Sendable () -> Void
  }

  private struct State {
    var outcome: Outcome?
    var waiters: [Waiter] = []
  }

  private let state = Mutex(State())

  /// nil while the commit is still running.
  var outcome: Outcome? { state.withLock { $0.outcome } }

  /// Runs `body` on `loop` once the commit has finished. Waiters on the same loop are run in
  /// one task, so a commit of fifty replies costs a hand-off per loop, not per connection.
  func whenDone(on loop: EventLoop, _ body: @escaping @Sendable () -> Void) {
    let done = state.withLock { state -> Bool in
      if state.outcome != nil { return true }
      state.waiters.append(Waiter(loop: loop, body: body))
      return false
    }
    if done { loop.execute(body) }
  }

  func complete(_ outcome: Outcome) {
    let waiters = state.withLock { state -> [Waiter] in
      guard state.outcome == nil else { return [] }
      state.outcome = outcome
      defer { state.waiters = [] }
      return state.waiters
    }
    var byLoop: [ObjectIdentifier: (EventLoop, [@Sendable () -> Void])] = [:]
    for waiter in waiters {
      byLoop[ObjectIdentifier(waiter.loop), default: (waiter.loop, [])].1.append(waiter.body)
    }
    for (loop, bodies) in byLoop.values {
      loop.execute { for body in bodies { body() } }
    }
  }
}

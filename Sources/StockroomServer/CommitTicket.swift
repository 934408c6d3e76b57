import Synchronization

/// The promise that one group commit makes to every request in it: saved, or not saved and why.
final class CommitTicket: Sendable {
  enum Outcome: Sendable, Equatable {
    case committed
    case failed(String)
  }

  private struct State {
    var outcome: Outcome?
    var waiters: [@Sendable (Outcome) -> Void] = []
  }

  private let state = Mutex(State())

  /// nil while the commit is still running.
  var outcome: Outcome? { state.withLock { $0.outcome } }

  /// Runs `body` once the commit has finished (at once if it has).
  func whenDone(_ body: @escaping @Sendable (Outcome) -> Void) {
    let done: Outcome? = state.withLock { state in
      if let outcome = state.outcome { return outcome }
      state.waiters.append(body)
      return nil
    }
    if let done { body(done) }
  }

  func complete(_ outcome: Outcome) {
    let waiters = state.withLock { state -> [@Sendable (Outcome) -> Void] in
      guard state.outcome == nil else { return [] }
      state.outcome = outcome
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter(outcome) }
  }
}

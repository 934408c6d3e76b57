import Synchronization

/// A result given once, and the one closure waiting for it, run by whoever gives it: what a
/// change's and a read's ticket keep while their writer works on them.
package final class OneShotResult<Value: Sendable>: Sendable {
  private let state = Mutex<(value: Value?, done: (@Sendable () -> Void)?)>((nil, nil))

  package init() {}

  /// nil until given.
  package var value: Value? { state.withLock { $0.value } }

  /// `done` runs once the result is given: at once, here, if it already was.
  package func whenGiven(_ done: @escaping @Sendable () -> Void) {
    let given = state.withLock { state -> Bool in
      if state.value == nil { state.done = done }
      return state.value != nil
    }
    if given { done() }
  }

  /// Gives the result and runs the waiting closure; a second result is ignored.
  package func give(_ value: Value) {
    let done = state.withLock { state -> (@Sendable () -> Void)? in
      guard state.value == nil else { return nil }
      state.value = value
      defer { state.done = nil }
      return state.done
    }
    done?()
  }
}

import Synchronization

/// The server's one budget for output written for watchers (and board streams) that they have not
/// taken yet (docs/security.md, "Fair shares").
///
/// Each watcher is bounded on its own (`ConnectionLimits.outputHardLimit`), but many stalled
/// watchers together are bounded only here: past `total` bytes, the watcher furthest behind of
/// the source whose watchers hold the most is cut, and so on until the sum is back under `total`.
/// So one host's stalled watchers cost the server at most `total`, and a reader that keeps up is
/// never the one cut.
///
/// Only watchers at least `threshold` behind are counted: one that keeps up never takes the lock.
package final class UnsentOutputBudget: Sendable {
  private struct Holder {
    var bytes: Int
    let source: PeerSource?
    let cut: @Sendable () -> Void
  }

  private struct State {
    var holders: [Int: Holder] = [:]
    var sum = 0
  }

  package let total: Int
  package let threshold: Int
  private let state = Mutex(State())

  package init(total: Int, threshold: Int = 64 * 1024) {
    self.total = total
    self.threshold = threshold
  }

  /// Says how far behind watcher `id` (of `source`) is; `cut` closes it, on its own loop, when it
  /// is chosen. Returns whether `id` is counted now (at least `threshold` behind).
  @discardableResult
  package func report(_ id: Int, source: PeerSource?, bytes: Int, cut: @escaping @Sendable () -> Void) -> Bool {
    guard bytes >= threshold else {
      forget(id)
      return false
    }
    let chosen: [@Sendable () -> Void] = state.withLock { state in
      state.sum += bytes - (state.holders[id]?.bytes ?? 0)
      state.holders[id] = Holder(bytes: bytes, source: source, cut: cut)
      return Self.choose(&state, total: total)
    }
    for cut in chosen { cut() }
    return true
  }

  /// Watcher `id` is gone, or caught up.
  package func forget(_ id: Int) {
    state.withLock { state in
      guard let gone = state.holders.removeValue(forKey: id) else { return }
      state.sum -= gone.bytes
    }
  }

  /// While over `total`: the source holding most, its watcher furthest behind.
  private static func choose(_ state: inout State, total: Int) -> [@Sendable () -> Void] {
    var chosen: [@Sendable () -> Void] = []
    while state.sum > total, !state.holders.isEmpty {
      var bySource: [PeerSource?: Int] = [:]
      for holder in state.holders.values { bySource[holder.source, default: 0] += holder.bytes }
      guard let heaviest = bySource.max(by: { $0.value < $1.value })?.key,
        let victim = state.holders.filter({ $0.value.source == heaviest }).max(by: { $0.value.bytes < $1.value.bytes })
      else { break }
      state.holders[victim.key] = nil
      state.sum -= victim.value.bytes
      chosen.append(victim.value.cut)
    }
    return chosen
  }
}

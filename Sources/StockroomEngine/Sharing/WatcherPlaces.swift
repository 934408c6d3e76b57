import Synchronization

/// The connection places watchers may hold (docs/security.md, "Fair shares"): `total` in all,
/// `perSource` from one address, so that the rest of the server's places are kept for
/// connections that are not watching. When every watcher place is held, the address holding the
/// most (at least two more than the newcomer's) gives its newest up (`SourceShares`), as a full
/// server's places are given: the source using most is cut, never the newcomer.
///
/// A place is taken by the WATCH that starts a connection watching (`admit`, in the handler,
/// which can still refuse it) and named with the way to close its connection when the
/// connection subscribes (`attach`); stopping watching or closing gives it back (`release`).
package final class WatcherPlaces: Sendable {
  package enum Admission: Equatable, Sendable {
    case admitted
    /// Refused: its address holds `perSource` already.
    case sourceFull
    /// Refused: every place is held, and no address holds two more than the newcomer's.
    case full
  }

  /// How to close a watcher's connection, told how many places its address held.
  package typealias Cut = @Sendable (_ held: Int) -> Void

  private struct State {
    var shares: SourceShares<Int, PeerSource?>
    var cuts: [Int: Cut] = [:]
    /// Watchers whose places went to others before their connections attached a cut: cut on
    /// attaching, with what their addresses held.
    var cutBeforeAttach: [Int: Int] = [:]
  }

  package let total: Int
  package let perSource: Int
  private let state: Mutex<State>

  package init(total: Int, perSource: Int) {
    self.total = max(1, total)
    self.perSource = max(1, min(perSource, total))
    state = Mutex(State(shares: SourceShares(total: self.total, perSource: self.perSource, victim: .newest)))
  }

  /// The places for a server of `maxClients` places, `perAddress` from one address (0: no
  /// limit): three quarters of each (rounded up), so a quarter stays for connections that are
  /// not watching.
  package convenience init(maxClients: Int, perAddress: Int) {
    let total = maxClients - maxClients / 4
    self.init(total: total, perSource: perAddress == 0 ? total : perAddress - perAddress / 4)
  }

  /// Watchers holding places now.
  package var count: Int { state.withLock { $0.shares.count } }

  /// Takes a place for connection `id` from `source`; when every place is held, the heaviest
  /// address's newest watcher (one that can be closed, first) is cut, after the lock is let go,
  /// and its place is this one's.
  package func admit(_ id: Int, from source: PeerSource?) -> Admission {
    let (admission, cut) = state.withLock { state -> (Admission, (() -> Void)?) in
      guard !state.shares.holds(id) else { return (.admitted, nil) }
      guard state.shares.held(by: source) < perSource else { return (.sourceFull, nil) }
      let cuts = state.cuts
      switch state.shares.admit(id, from: source, rank: { cuts[$0] == nil ? 1 : 0 }) {
      case .admitted: return (.admitted, nil)
      case .refused: return (.full, nil)
      case .admittedCutting(let victim, let victimSource):
        // What its address held before this place went: one more than it holds now.
        let held = state.shares.held(by: victimSource) + 1
        guard let cut = state.cuts.removeValue(forKey: victim) else {
          state.cutBeforeAttach[victim] = held
          return (.admitted, nil)
        }
        return (.admitted, { cut(held) })
      }
    }
    cut?()
    return admission
  }

  /// Names how to close watcher `id`'s connection, should its place go to another address; a
  /// watcher whose place went already is closed now.
  package func attach(_ id: Int, cut: @escaping Cut) {
    let owed = state.withLock { state -> Int? in
      if let held = state.cutBeforeAttach.removeValue(forKey: id) { return held }
      if state.shares.holds(id) { state.cuts[id] = cut }
      return nil
    }
    if let owed { cut(owed) }
  }

  /// Watcher `id` stopped watching, or closed: its place is free.
  package func release(_ id: Int) {
    state.withLock { state in
      state.shares.release(id)
      state.cuts[id] = nil
      state.cutBeforeAttach[id] = nil
    }
  }
}

import Synchronization

/// The connection places watchers may hold (docs/security.md, "Fair shares"): `total` in all,
/// `perSource` from one address, so that the rest of the server's places are kept for
/// connections that are not watching. When every watcher place is held, the address holding the
/// most (at least two more than the newcomer's) gives its newest up, as a full server's places
/// are given: the source using most is cut, never the newcomer.
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

  private struct Holder {
    let source: PeerSource?
    var cut: (@Sendable (_ held: Int) -> Void)?
  }

  private struct State {
    var holders: [Int: Holder] = [:]
    var counts: [PeerSource?: Int] = [:]
  }

  package let total: Int
  package let perSource: Int
  private let state = Mutex(State())

  package init(total: Int, perSource: Int) {
    self.total = max(1, total)
    self.perSource = max(1, min(perSource, total))
  }

  /// The places for a server of `maxClients` places, `perAddress` from one address (0: no
  /// limit): three quarters of each (rounded up), so a quarter stays for connections that are
  /// not watching.
  package convenience init(maxClients: Int, perAddress: Int) {
    let total = maxClients - maxClients / 4
    self.init(total: total, perSource: perAddress == 0 ? total : perAddress - perAddress / 4)
  }

  /// Watchers holding places now.
  package var count: Int { state.withLock { $0.holders.count } }

  /// Takes a place for connection `id` from `source`; when every place is held, the heaviest
  /// address's newest watcher is cut (after the lock is let go) and its place is this one's.
  package func admit(_ id: Int, from source: PeerSource?) -> Admission {
    let (admission, cut) = state.withLock { state -> (Admission, (() -> Void)?) in
      guard state.holders[id] == nil else { return (.admitted, nil) }
      let held = state.counts[source, default: 0]
      guard held < perSource else { return (.sourceFull, nil) }
      var cut: (() -> Void)?
      if state.holders.count >= total {
        guard let victim = Self.heaviest(state, against: source) else { return (.full, nil) }
        let victimHeld = state.counts[victim.source, default: 0]
        Self.remove(victim.id, from: &state)
        cut = { victim.cut(victimHeld) }
      }
      state.holders[id] = Holder(source: source, cut: nil)
      state.counts[source] = held + 1
      return (.admitted, cut)
    }
    cut?()
    return admission
  }

  /// Names how to close watcher `id`'s connection, should its place go to another address.
  package func attach(_ id: Int, cut: @escaping @Sendable (_ held: Int) -> Void) {
    state.withLock { $0.holders[id]?.cut = cut }
  }

  /// Watcher `id` stopped watching, or closed: its place is free.
  package func release(_ id: Int) {
    state.withLock { Self.remove(id, from: &$0) }
  }

  private static func remove(_ id: Int, from state: inout State) {
    guard let gone = state.holders.removeValue(forKey: id) else { return }
    let left = state.counts[gone.source, default: 1] - 1
    state.counts[gone.source] = left > 0 ? left : nil
  }

  /// The newest watcher that can be cut of the address holding the most places, when that is at
  /// least two more than `source` holds (losing one leaves it no fewer than the newcomer has).
  private static func heaviest(
    _ state: State, against source: PeerSource?
  ) -> (id: Int, source: PeerSource?, cut: @Sendable (Int) -> Void)? {
    guard let (heaviest, held) = state.counts.max(by: { $0.value < $1.value }), heaviest != source,
      held >= state.counts[source, default: 0] + 2
    else { return nil }
    let newest = state.holders.filter { $0.value.source == heaviest && $0.value.cut != nil }.max { $0.key < $1.key }
    guard let newest, let cut = newest.value.cut else { return nil }
    return (newest.key, heaviest, cut)
  }
}

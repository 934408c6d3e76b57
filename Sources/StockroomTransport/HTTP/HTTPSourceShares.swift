import StockroomEngine

/// Places shared between sources (an address, an IPv6 /64): at most `total` held at once, at
/// most `perSource` by one source. When every place is held, a newcomer from a source holding
/// fewer than the source holding the most takes one of that source's places: the biggest is cut,
/// never the newcomer, so a few hosts cannot keep everyone else out by holding every place. A
/// newcomer is refused only when its own source is among the biggest (or at its share).
package struct HTTPSourceShares<Key: Hashable & Sendable>: Sendable {
  package enum Admission: Equatable, Sendable {
    case admitted
    /// Admitted in the place of `Key`, which the caller must now close.
    case admittedCutting(Key)
    case refused
  }

  package let total: Int
  package let perSource: Int
  /// Each holder's source, and when it was admitted (a count: older is smaller).
  private var holders: [Key: (source: PeerSource, order: Int)] = [:]
  private var counts: [PeerSource: Int] = [:]
  private var admissions = 0

  package init(total: Int, perSource: Int) {
    self.total = total
    self.perSource = perSource
  }

  package var count: Int { holders.count }

  package func held(by source: PeerSource) -> Int { counts[source] ?? 0 }

  /// Admits `key` from `source`, or says which holder it displaces or that it is refused.
  /// `rank` orders the biggest source's holders for cutting: the lowest first, then the oldest.
  package mutating func admit(_ key: Key, from source: PeerSource, rank: (Key) -> Int = { _ in 0 }) -> Admission {
    let mine = held(by: source)
    guard mine < perSource else { return .refused }
    guard holders.count >= total else {
      add(key, source)
      return .admitted
    }
    // The source holding the most; a newcomer that would hold as many once admitted is refused,
    // so two sources never take places from each other in turn.
    guard let (biggest, most) = counts.max(by: { $0.value < $1.value }), mine + 1 < most else { return .refused }
    let candidates = holders.filter { $0.value.source == biggest }
    guard
      let victim = candidates.min(by: { (rank($0.key), $0.value.order) < (rank($1.key), $1.value.order) })?.key
    else { return .refused }
    release(victim)
    add(key, source)
    return .admittedCutting(victim)
  }

  /// Gives back `key`'s place; nothing if it holds none (it was cut, or never admitted).
  package mutating func release(_ key: Key) {
    guard let holder = holders.removeValue(forKey: key) else { return }
    let left = (counts[holder.source] ?? 1) - 1
    counts[holder.source] = left > 0 ? left : nil
  }

  private mutating func add(_ key: Key, _ source: PeerSource) {
    admissions += 1
    holders[key] = (source, admissions)
    counts[source, default: 0] += 1
  }
}

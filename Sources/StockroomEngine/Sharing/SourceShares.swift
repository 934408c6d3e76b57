/// Places shared between sources (an address, an IPv6 /64): at most `total` held at once, at
/// most `perSource` by one source. When every place is held, a newcomer from a source holding
/// fewer than the source holding the most takes one of that source's places: the biggest is cut,
/// never the newcomer, so a few hosts cannot keep everyone else out by holding every place. A
/// newcomer is refused only when its own source is among the biggest (or at its share).
///
/// One rule for the HTTP server's connections and board streams and for watchers' places
/// (`WatcherPlaces`); docs/security.md, "Fair shares".
package struct SourceShares<Key: Hashable & Sendable, Source: Hashable & Sendable>: Sendable {
  /// Which of the biggest source's holders gives its place up, among those of the lowest rank.
  package enum Victim: Sendable {
    /// Its oldest: a board stream, whose browser reconnects and resyncs.
    case oldest
    /// Its newest: a watcher, as a full server's newest connection gives its place up.
    case newest
  }

  package enum Admission: Equatable, Sendable {
    case admitted
    /// Admitted in the place of `Key`, a holder from `source`, which the caller must now close.
    case admittedCutting(Key, source: Source)
    /// Refused; `ownOldest` is the source's own oldest holder (nil when it holds none), whose
    /// place a caller that keeps the newest of each source gives up before asking again.
    case refused(ownOldest: Key?)

    package var isAdmitted: Bool {
      if case .refused = self { return false }
      return true
    }
  }

  package let total: Int
  package let perSource: Int
  /// Each holder's source.
  private var holders: [Key: Source] = [:]
  /// Each source's holders, with when each was admitted (a count: older is smaller).
  private var places: [Source: [Key: Int]] = [:]
  private var admissions = 0
  private let victim: Victim

  package init(total: Int, perSource: Int, victim: Victim = .oldest) {
    self.total = total
    self.perSource = perSource
    self.victim = victim
  }

  package var count: Int { holders.count }

  package func held(by source: Source) -> Int { places[source]?.count ?? 0 }

  /// Whether `key` holds a place.
  package func holds(_ key: Key) -> Bool { holders[key] != nil }

  /// Admits `key` from `source`, or says which holder it displaces or that it is refused.
  /// `rank` orders the biggest source's holders for cutting: the lowest first, then the oldest
  /// (or the newest, as `victim` says).
  package mutating func admit(_ key: Key, from source: Source, rank: (Key) -> Int = { _ in 0 }) -> Admission {
    let mine = places[source] ?? [:]
    var refused: Admission { .refused(ownOldest: mine.min { $0.value < $1.value }?.key) }
    guard mine.count < perSource else { return refused }
    guard holders.count >= total else {
      add(key, source)
      return .admitted
    }
    // The source holding the most; a newcomer that would hold as many once admitted is refused,
    // so two sources never take places from each other in turn.
    guard let (biggest, theirs) = places.max(by: { $0.value.count < $1.value.count }),
      mine.count + 1 < theirs.count
    else { return refused }
    let sign = self.victim == .oldest ? 1 : -1
    guard
      let victim = theirs.min(by: { (rank($0.key), sign * $0.value) < (rank($1.key), sign * $1.value) })?.key
    else { return refused }
    release(victim)
    add(key, source)
    return .admittedCutting(victim, source: biggest)
  }

  /// Gives back `key`'s place; nothing if it holds none (it was cut, or never admitted).
  package mutating func release(_ key: Key) {
    guard let source = holders.removeValue(forKey: key) else { return }
    places[source]?[key] = nil
    if places[source]?.isEmpty == true { places[source] = nil }
  }

  private mutating func add(_ key: Key, _ source: Source) {
    admissions += 1
    holders[key] = source
    places[source, default: [:]][key] = admissions
  }
}

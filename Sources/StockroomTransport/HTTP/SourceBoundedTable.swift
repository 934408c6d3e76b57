import StockroomEngine

/// Entries anyone on the HTTP port can make the server keep (a phone page's token, an order
/// key's answer): at most `total`, at most `perSource` from one address, each for `lifetime`.
/// A source at its share, or among the biggest in a full table, makes room by losing its own
/// oldest entry; in a full table a smaller source takes the biggest one's oldest
/// (`SourceShares`). So a newcomer is never refused, and a flood only forgets its own.
struct SourceBoundedTable<Value: Sendable>: Sendable {
  private struct Entry: Sendable {
    var value: Value
    let made: ContinuousClock.Instant
  }

  private var entries: [String: Entry] = [:]
  private var shares: SourceShares<String, PeerSource>
  private let lifetime: Duration

  init(total: Int, perSource: Int, lifetime: Duration) {
    shares = SourceShares(total: total, perSource: perSource, victim: .oldest)
    self.lifetime = lifetime
  }

  var count: Int { entries.count }

  /// The entry under `key`, unless it has outlived `lifetime` (then it is forgotten).
  mutating func value(_ key: String, at now: ContinuousClock.Instant) -> Value? {
    guard let entry = entries[key] else { return nil }
    guard now - entry.made < lifetime else {
      remove(key)
      return nil
    }
    return entry.value
  }

  /// Keeps `value` under `key` for `source`, making room as the type says.
  mutating func insert(_ key: String, _ value: Value, from source: PeerSource, at now: ContinuousClock.Instant) {
    remove(key)
    while true {
      switch shares.admit(key, from: source) {
      case .admitted:
        entries[key] = Entry(value: value, made: now)
        return
      case .admittedCutting(let victim, _):
        entries.removeValue(forKey: victim)
        entries[key] = Entry(value: value, made: now)
        return
      case .refused(let ownOldest):
        // Its own oldest goes. (A source holding none is refused only when every entry is
        // another source's single one: then it is not kept.)
        guard let ownOldest else { return }
        remove(ownOldest)
      }
    }
  }

  /// Changes the value under `key`, if it is still kept.
  mutating func update(_ key: String, _ value: Value) {
    entries[key]?.value = value
  }

  mutating func remove(_ key: String) {
    entries.removeValue(forKey: key)
    shares.release(key)
  }
}

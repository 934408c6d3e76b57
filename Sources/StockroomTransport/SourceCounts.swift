import StockroomEngine

/// The places each source address holds, and which connections hold them: for
/// `--max-clients-per-address`, and for choosing whose place a newcomer takes when the server is
/// full (docs/security.md, "Fair shares").
package struct SourceCounts {
  private var counts: [PeerSource: Int] = [:]
  /// The connections made on places taken, by source and id.
  private var holders: [PeerSource: [Int: Connection]] = [:]
  /// Connections whose places went to newcomers, until they have closed.
  private var yielding: Set<Int> = []

  /// Connections giving up their places now.
  package var yieldingCount: Int { yielding.count }

  /// Takes a place for `source` unless it holds `limit` already (0: no limit).
  package mutating func take(_ source: PeerSource, limit: Int) -> Bool {
    let held = counts[source, default: 0]
    guard limit == 0 || held < limit else { return false }
    counts[source] = held + 1
    return true
  }

  /// Names the connection made on a place `take` gave.
  package mutating func attach(_ connection: Connection) {
    holders[connection.source, default: [:]][connection.id] = connection
  }

  /// Gives back a place `take` gave (and forgets its connection, `id`); the entries go with the
  /// last place, so the table holds only sources connected now.
  package mutating func release(_ source: PeerSource, id: Int? = nil) {
    if let id { holders[source]?[id] = nil }
    if holders[source]?.isEmpty == true { holders[source] = nil }
    guard let held = counts[source] else { return }
    counts[source] = held > 1 ? held - 1 : nil
  }

  /// `connection` gives its place up now: it no longer counts for its source.
  package mutating func yield(_ connection: Connection) {
    release(connection.source, id: connection.id)
    yielding.insert(connection.id)
  }

  /// A connection has closed: its place is given back, unless it was yielded already.
  package mutating func closed(_ connection: Connection) {
    guard yielding.remove(connection.id) == nil else { return }
    release(connection.source, id: connection.id)
  }

  /// How many places `source` holds.
  package func held(by source: PeerSource) -> Int { counts[source, default: 0] }

  /// The newest connection of the source holding the most places, when that is at least two
  /// more than `source` holds (so that losing one leaves it no fewer than the newcomer has):
  /// whose place a newcomer from `source` may take on a full server.
  package func heaviest(against source: PeerSource) -> (connection: Connection, held: Int)? {
    guard let (heaviest, held) = counts.max(by: { $0.value < $1.value }), heaviest != source,
      held >= self.held(by: source) + 2,
      let newest = holders[heaviest]?.max(by: { $0.key < $1.key })?.value
    else { return nil }
    return (newest, held)
  }

  package init() {}
}

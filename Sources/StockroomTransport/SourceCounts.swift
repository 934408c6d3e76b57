import StockroomEngine

/// How many connections each source address holds, for `--max-clients-per-address`.
package struct SourceCounts {
  private var counts: [PeerSource: Int] = [:]

  /// Takes a place for `source` unless it holds `limit` already (0: no limit).
  package mutating func take(_ source: PeerSource, limit: Int) -> Bool {
    let held = counts[source, default: 0]
    guard limit == 0 || held < limit else { return false }
    counts[source] = held + 1
    return true
  }

  /// Gives back a place `take` gave; the entry goes with the last one, so the table holds only
  /// sources connected now.
  package mutating func release(_ source: PeerSource) {
    guard let held = counts[source] else { return }
    counts[source] = held > 1 ? held - 1 : nil
  }

  /// How many places `source` holds.
  package func held(by source: PeerSource) -> Int { counts[source, default: 0] }

  package init() {}
}

import StockroomDomain

/// The recent ledger, kept in memory when the server runs without a database.
package struct LedgerLog: Sendable {
  package static let capacity = 10_000

  private var ring: [LedgerEntry] = []
  private var start = 0
  private var sequence = 0

  package mutating func append(_ entry: LedgerEntry) {
    var entry = entry
    sequence += 1
    entry.sequence = sequence
    if ring.count < Self.capacity {
      ring.append(entry)
    } else {
      ring[start] = entry
      start = (start + 1) % Self.capacity
    }
  }

  /// Entries for `item`, newest first.
  package func entries(of item: String) -> [LedgerEntry] {
    var out: [LedgerEntry] = []
    for offset in stride(from: ring.count - 1, through: 0, by: -1) {
      let entry = ring[(start + offset) % ring.count]
      if entry.item == item { out.append(entry) }
    }
    return out
  }
}

import Foundation
import StockroomDomain

/// The change log that keeps several nodes' caches of one store in step.
///
/// Every change a node makes is one transaction that first locks the one row of `change_head`:
/// the nodes' writes take turns, so there is one commit order, no two nodes can give out the same
/// order id, and no deadlock can arise between multi-item orders, whatever items they name. Under
/// that lock the node first replays the changes other nodes committed since it last looked, so
/// its mutations apply to the shop as the database holds it, and then writes its own rows, its
/// mutations (for the others to replay) and a notification. Group commit keeps the lock's cost
/// per transaction, not per change.
extension PostgresShopDatabase {
  /// The channel a committed change is announced on; the payload is its sequence number.
  public static let changeChannel = "stockroom_changes"

  /// One shared-store transaction. `prepare` receives the changes other nodes committed after
  /// `known` (to replay first) and returns this node's change, or nil when it has none; it runs
  /// while the transaction holds the writers' lock, so it must be quick and do no I/O. Returns
  /// the sequence number the store is at afterwards: this node's change's when it made one.
  public func commitChange(
    after known: Int, node: String, _ prepare: ([ChangeRecord]) throws -> PreparedChange?
  ) throws -> Int {
    let connection = try usableWriter()
    return try connection.transaction {
      let head = Self.int(
        try connection.query("SELECT seq FROM change_head WHERE id = 1 FOR UPDATE").values.first?[0])
      let missed = head > known ? try changes(after: known, through: head, on: connection) : []
      guard let change = try prepare(missed) else { return head }
      let sequence = head + 1
      try writeRows(change.batch, countersBefore: change.countersBefore, on: connection)
      try connection.query(
        "INSERT INTO changes(seq, node, mutations, digest) VALUES ($1, $2, $3, $4)",
        [String(sequence), node, try ChangeRecord.encode(change.mutations), change.digest])
      try connection.query("UPDATE change_head SET seq = $1 WHERE id = 1", [String(sequence)])
      // Delivered to every listening node when, and only if, this transaction commits.
      try connection.query("SELECT pg_notify($1, $2)", [Self.changeChannel, String(sequence)])
      return sequence
    }
  }

  /// The store's head as one statement sees it, and the changes after `known` through it (at
  /// most `limit`), oldest first: one round trip both learns the store's position and brings
  /// what this node lacks of it. The changes are nil when the log no longer holds them all
  /// (pruned), and the node must load the whole shop again instead.
  public func changesThroughHead(after known: Int, limit: Int = 1000) throws -> (head: Int, changes: [ChangeRecord]?) {
    let rows = try usableWriter().query(
      """
      SELECT h.seq, c.seq, c.node, c.mutations, c.digest FROM change_head h
      LEFT JOIN changes c ON c.seq > $1 AND c.seq <= LEAST(h.seq, $1 + $2)
      WHERE h.id = 1 ORDER BY c.seq
      """, [String(known), String(limit)]
    ).values
    let head = Self.int(rows.first?[0])
    let records = try rows.filter { $0[1] != nil }.map { row in
      let sequence = Self.int(row[1])
      return ChangeRecord(
        sequence: sequence, node: row[2] ?? "", mutations: try ChangeRecord.decode(row[3] ?? "", sequence: sequence),
        digest: row[4] ?? "")
    }
    let expected = min(head, known + limit) - known
    guard records.count == max(0, expected), records.first.map({ $0.sequence == known + 1 }) ?? true else {
      return (head, nil)
    }
    return (head, records)
  }

  private func changes(after known: Int, through last: Int, on connection: PostgresConnection) throws
    -> [ChangeRecord]
  {
    let rows = try connection.query(
      "SELECT seq, node, mutations, digest FROM changes WHERE seq > $1 AND seq <= $2 ORDER BY seq",
      [String(known), String(last)]
    ).values
    let records = try rows.map { row in
      let sequence = Self.int(row[0])
      return ChangeRecord(
        sequence: sequence, node: row[1] ?? "", mutations: try ChangeRecord.decode(row[2] ?? "", sequence: sequence),
        digest: row[3] ?? "")
    }
    for (offset, record) in records.enumerated() where record.sequence != known + 1 + offset {
      throw StorageError(
        "the change log of \(url) skips from \(known + offset) to \(record.sequence); it was pruned under a node")
    }
    return records
  }

  /// The sequence number of the last committed change, read on the shared writer's connection:
  /// whether that connection answers is what decides that the link is down.
  public func changeHead() throws -> Int {
    Self.int(try usableWriter().query("SELECT seq FROM change_head WHERE id = 1").values.first?[0])
  }

  /// Drops logged changes older than `age` and more than `keeping` behind the head: a node that
  /// falls further behind than that (stopped, or cut off from the database) loads the whole shop.
  public func pruneChanges(olderThan age: TimeInterval, keeping: Int) throws {
    try usableWriter().query(
      """
      DELETE FROM changes WHERE at < now() - make_interval(secs => $1::float8)
        AND seq <= (SELECT seq FROM change_head WHERE id = 1) - $2
      """, [String(age), String(keeping)])
  }
}

import Foundation
import StockroomDomain

/// The change log that keeps several nodes' caches of one store in step.
///
/// Every change a node makes is one transaction that first locks the one row of `change_head`:
/// the nodes' writes take turns, so there is one commit order, no two nodes can give out the same
/// order id, and no deadlock can arise between multi-item orders, whatever items they name. Under
/// that lock the node first replays the changes other nodes committed since it last looked, so
/// its mutations apply to the shop as the database holds it, and then writes its own rows and
/// its mutations (for the others to replay). The others hear of it by a notification: from the
/// flush barrier once the change is on disk (`--fsync always`), or from the commit itself.
/// Group commit keeps the lock's cost per transaction, not per change.
extension PostgresShopDatabase {
  /// The channel a committed change is announced on; the payload is its sequence number.
  public static let changeChannel = "stockroom_changes"

  /// One shared-store transaction. `prepare` receives the changes other nodes committed after
  /// `known` (to replay first) and returns this node's change, or nil when it has none; it runs
  /// while the transaction holds the writers' lock, so it must be quick and do no I/O. Returns
  /// the sequence number the store is at afterwards: this node's change's when it made one.
  ///
  /// Two round trips, since every one is paid while other nodes wait for the lock: one takes the
  /// lock and brings the changes missed, the other writes every row and commits. With
  /// `--fsync always` the commit does not wait for its flush: the caller confirms it and every
  /// change it replayed (`confirmCommitted`), which lets this connection go on to the next
  /// transaction while the flush runs.
  public func commitChange(after known: Int, node: String, _ prepare: ([ChangeRecord]) throws -> PreparedChange?)
    throws -> Int
  {
    let connection = try usableWriter()
    do {
      // The changes are read by a statement of their own, after the lock is held: in READ
      // COMMITTED a statement that waited for the lock would still read the table as it was
      // before the wait, without the change of the node that held it.
      // With `flushesSeparately` the commit does not wait for the WAL flush: the lock goes as
      // soon as the rows are written, and `flushBarrier` waits for the flush outside it.
      let begin = flushesSeparately ? ["BEGIN", "SET LOCAL synchronous_commit TO off"] : ["BEGIN"]
      let locked = try connection.pipeline(
        begin.map { PostgresStatement($0) } + [
          PostgresStatement("SELECT seq FROM change_head WHERE id = 1 FOR UPDATE", prepared: true),
          PostgresStatement(
            """
            SELECT seq, node, mutations, encode(record, 'hex'), digest FROM changes
            WHERE seq > $1 AND seq <= (SELECT seq FROM change_head WHERE id = 1) ORDER BY seq
            """, [String(known)], prepared: true),
        ])
      let head = Self.int(locked[begin.count].values.first?[0])
      let missed = try Self.records(locked[begin.count + 1].values, after: known, through: head, in: url)
      guard let change = try prepare(missed) else {
        // What it replayed may be another node's change not yet on disk: the caller confirms it.
        try connection.pipeline([PostgresStatement("COMMIT")])
        return head
      }
      let sequence = head + 1
      try connection.pipeline(
        PostgresRowWrites.statements(for: change.batch, countersBefore: change.countersBefore) + [
          PostgresStatement(
            "INSERT INTO changes(seq, node, record, digest) VALUES ($1, $2, decode($3, 'hex'), $4)",
            [String(sequence), node, ChangeRecord.encode(change.mutations), change.digest], prepared: true),
          PostgresStatement("UPDATE change_head SET seq = $1 WHERE id = 1", [String(sequence)], prepared: true),
        ] + (flushesSeparately ? [] : [Self.announcement(of: sequence)]) + [PostgresStatement("COMMIT")])
      return sequence
    } catch {
      // A failed statement left the transaction aborted, or a failed COMMIT ended it already.
      if connection.isConnected { try? connection.execute("ROLLBACK") }
      throw error
    }
  }

  /// The store's head as one statement sees it, and the changes after `known` through it (at
  /// most `limit`), oldest first: one round trip both learns the store's position and brings
  /// what this node lacks of it. With `.durableHead` (and `--fsync always`) the head is the last
  /// change a flush barrier confirmed on disk. The changes are nil when the log no longer holds
  /// them all (pruned), and the node must load the whole shop again instead. `flushed`: every
  /// commit returned is on disk already (with `.head`: the log was flushed past where it had
  /// been written when the statement looked); when not, one of them may be a change committed
  /// without waiting for its flush whose node has not yet forced it (`flushBarrier`).
  public func changesThroughHead(after known: Int, limit: Int = 1000, reach: CatchUpReach = .head) throws -> (
    head: Int, changes: [ChangeRecord]?, flushed: Bool
  ) {
    // Kept prepared: a node sends one of the two for every burst of linearizable reads.
    let durable = reach == .durableHead && flushesSeparately
    let statement = PostgresStatement(
      durable ? Self.durableHeadCatchUpSQL : Self.headCatchUpSQL, [String(known), String(limit)],
      prepared: true)
    let rows = try usableWriter().pipeline([statement])[0].values
    return try Self.caughtUp(rows, after: known, limit: limit)
  }

  /// `changesThroughHead`'s statement for each reach: the head (and whether everything before
  /// it was flushed when the statement looked), or the durable head (all of it flushed).
  private static let headCatchUpSQL = catchUpSQL(
    head: "h.seq", flushed: "pg_current_wal_flush_lsn() >= pg_current_wal_insert_lsn()")
  private static let durableHeadCatchUpSQL = catchUpSQL(
    head: "LEAST(h.seq, (SELECT COALESCE(max(seq), 0) FROM node_flushes))", flushed: "true")

  private static func catchUpSQL(head: String, flushed: String) -> String {
    """
    SELECT b.head, c.seq, c.node, c.mutations, encode(c.record, 'hex'), c.digest, \(flushed)
    FROM (SELECT \(head) AS head FROM change_head h WHERE h.id = 1) b
    LEFT JOIN changes c ON c.seq > $1 AND c.seq <= LEAST(b.head, $1 + $2)
    ORDER BY c.seq
    """
  }

  /// The head, the records and whether they were flushed, from `changesThroughHead`'s rows.
  private static func caughtUp(_ rows: [[String?]], after known: Int, limit: Int) throws -> (
    head: Int, changes: [ChangeRecord]?, flushed: Bool
  ) {
    let head = int(rows.first?[0])
    let flushed = rows.allSatisfy { $0[6] == "t" }
    let records = try rows.filter { $0[1] != nil }.map { try record(Array($0[1...5])) }
    let expected = min(head, known + limit) - known
    guard records.count == max(0, expected), records.first.map({ $0.sequence == known + 1 }) ?? true else {
      return (head, nil, flushed)
    }
    return (head, records, flushed)
  }

  /// One row of the log as `seq, node, mutations, encode(record, 'hex'), digest`.
  private static func record(_ row: [String?]) throws -> ChangeRecord {
    let sequence = int(row[0])
    let mutations = try ChangeRecord.decode(record: row[3], legacy: row[2], sequence: sequence)
    return ChangeRecord(sequence: sequence, node: row[1] ?? "", mutations: mutations, digest: row[4] ?? "")
  }

  /// The log's rows after `known` through `head`, which must all be there, in order.
  private static func records(_ rows: [[String?]], after known: Int, through head: Int, in url: PostgresURL) throws
    -> [ChangeRecord]
  {
    let records = try rows.map(record)
    for (offset, record) in records.enumerated() where record.sequence != known + 1 + offset {
      throw StorageError(
        "the change log of \(url) skips from \(known + offset) to \(record.sequence); it was pruned under a node")
    }
    guard records.count == max(0, head - known) else {
      throw StorageError(
        "the change log of \(url) ends at \(known + records.count), before its head \(head); it was pruned under a node"
      )
    }
    return records
  }

  /// The sequence number of the last committed change, read on the shared writer's connection:
  /// whether that connection answers is what decides that the link is down.
  public func changeHead() throws -> Int {
    Self.int(try usableWriter().query("SELECT seq FROM change_head WHERE id = 1").values.first?[0])
  }

  /// Drops the flush rows (`flushBarrier`) of nodes that have not flushed for `age`: a node's
  /// name holds its process id, so every restart leaves one behind.
  public func pruneNodeFlushes(olderThan age: TimeInterval) throws {
    try usableWriter().query(
      "DELETE FROM node_flushes WHERE at < now() - make_interval(secs => $1::float8)", [String(age)])
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

/// With `--fsync always` a change commits without waiting for its WAL flush, so that the
/// writers' lock is not held through it; the node then forces the flush with a write of its own
/// (the barrier) and announces the change once it is on disk.
extension PostgresShopDatabase {
  /// Whether a change's commit leaves its WAL flush to the barrier (`--fsync always`; with
  /// `batch` and `off` PostgreSQL flushes in the background anyway).
  public var flushesSeparately: Bool { fsync == .always }

  /// Returns once everything committed before it is on PostgreSQL's disk, and tells the other
  /// nodes how far that is (`flushAndAnnounce`).
  public func flushBarrier(node: String) throws {
    guard flushesSeparately else { return }
    try flushAndAnnounce(node: node, on: try usableWriter())
  }

  /// Returns once every change committed before it is on disk, as `flushBarrier` does, but on a
  /// connection of its own: the writer's next transaction (and the writers' lock) need not wait
  /// for this one's flush. Without `announcing`, the other nodes are told later
  /// (`announceFlushed`). For the shared writer's flusher thread alone.
  public func confirmCommitted(node: String, announcing: Bool) throws {
    try flushAndAnnounce(node: node, announcing: announcing, on: try usableConfirmer())
  }

  /// Tells the other nodes how far this node's last barrier confirmed the log; a failure loses
  /// nothing (they poll). For the shared writer's flusher thread alone.
  public func announceFlushed(node: String) throws {
    try usableConfirmer().pipeline(transactions: [Self.announcement(node)])
  }

  /// Runs the barrier and the announcement after it in one round trip on `connection`.
  ///
  /// The barrier is a one-row write of this node's own, committed with `synchronous_commit` on,
  /// whose flush carries every commit before it in the log: a transaction that only took an id
  /// would write no log and wait for nothing; a row shared by the nodes would make their flushes
  /// take turns. The row records the head its transaction saw, which is then on disk, so the
  /// largest of those rows is the store's durable head (`CatchUpReach.durableHead`).
  ///
  /// The announcement is a transaction of its own after the barrier, committed without waiting
  /// for a flush: `NOTIFY` holds a lock of the whole cluster until its transaction's commit is
  /// done, flush included, which would make the nodes' barriers take turns. Its failure loses
  /// nothing (the other nodes poll), so it is not thrown; a barrier's is, as a lost connection:
  /// the transaction before it committed, but is not known to be on disk.
  private func flushAndAnnounce(node: String, announcing: Bool = true, on connection: PostgresConnection) throws {
    let barrier = Self.barrier(node)
    var answered: [[PostgresRows]] = []
    do {
      let announcement = announcing ? [Self.announcement(node)] : []
      try connection.pipeline(transactions: [barrier] + announcement, answered: &answered)
    } catch {
      // The barrier ran whole, and only the announcement failed: nothing is lost (they poll).
      if answered.first?.count ?? 0 == barrier.count { return }
      throw PostgresError(.connectionLost, "the changes could not be confirmed on disk: \(error)")
    }
  }

  /// The barrier's three statements: its row records the head its transaction saw.
  private static func barrier(_ node: String) -> [PostgresStatement] {
    [
      PostgresStatement("BEGIN"),
      PostgresStatement(
        """
        INSERT INTO node_flushes(node, flushes, seq) SELECT $1, 1, seq FROM change_head WHERE id = 1
        ON CONFLICT (node) DO UPDATE
          SET flushes = node_flushes.flushes + 1, seq = GREATEST(node_flushes.seq, EXCLUDED.seq), at = now()
        """, [node], prepared: true),
      PostgresStatement("COMMIT"),
    ]
  }

  private static func announcement(_ node: String) -> [PostgresStatement] {
    [
      PostgresStatement("BEGIN"), PostgresStatement("SET LOCAL synchronous_commit TO off"),
      PostgresStatement(
        "SELECT pg_notify($1, seq::text) FROM node_flushes WHERE node = $2", [changeChannel, node], prepared: true),
      PostgresStatement("COMMIT"),
    ]
  }

  /// Tells every listening node that the log reaches `sequence`; PostgreSQL delivers it when,
  /// and only if, the transaction it is sent in commits.
  static func announcement(of sequence: Int) -> PostgresStatement {
    PostgresStatement("SELECT pg_notify($1, $2)", [changeChannel, String(sequence)], prepared: true)
  }
}

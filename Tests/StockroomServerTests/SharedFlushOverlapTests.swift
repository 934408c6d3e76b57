import Foundation
import StockroomStorage
import StockroomTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A node on a PostgreSQL store with `--fsync always` confirms its commits with a flush barrier
/// on a connection of its own, so its next transaction runs while the last one's flush does;
/// nothing is answered before its barrier. Real processes against a real cluster; a test
/// transaction holds the node's barrier row to keep its flush waiting.
@Suite(.serialized, .timeLimit(.minutes(30)))
struct SharedFlushOverlapTests {
  /// Whether the client has nothing to read: no reply has come.
  private static func unanswered(_ client: LineClient) -> Bool {
    var waiting = pollfd(fd: client.fd, events: Int16(POLLIN), revents: 0)
    return poll(&waiting, 1, 0) == 0
  }

  @Test("a node commits its next change while the last one's flush waits, and answers neither before it")
  func commitsGoOnWhileAFlushWaits() throws {
    let url = try PostgresShop.withAccounts(in: PostgresCluster.shared.get())
    // One loop, so a reply on alice's connection shows the loop has done what was queued before.
    let (daemon, port) = try PostgresShop.node(url, ["--loops", "1"])
    defer { daemon.process.terminate() }
    let alice = try PostgresShop.client(port, as: "alice")
    // The first change's barrier makes the node's row, for the test's transaction to hold.
    #expect(try alice.request("ADD banana 100").isOK)
    let level = try #require(Int(try alice.request("STOCK banana").rows.first?["stock"] ?? ""))
    let node = try #require(try alice.request("INFO store").rows.first?["node"])
    let store = try PostgresConnection(PostgresURL(url))
    func head() throws -> Int { Int(try store.query("SELECT seq FROM change_head").values.first?[0] ?? "") ?? -1 }
    let before = try head()
    let holder = try PostgresConnection(PostgresURL(url))
    let holderPID = try #require(try holder.query("SELECT pg_backend_pid()").values.first?[0] ?? nil)
    try holder.execute("BEGIN")
    _ = try holder.query("SELECT flushes FROM node_flushes WHERE node = $1 FOR UPDATE", [node])
    /// Whether a connection (the node's flusher) waits for the holder's lock on the row.
    func flushWaits() throws -> Bool {
      let count =
        try store.query(
          "SELECT count(*) FROM pg_stat_activity WHERE $1::int = ANY(pg_blocking_pids(pid))", [holderPID]
        ).values.first?[0] ?? nil
      return (Int(count ?? "") ?? 0) > 0
    }

    let orders = try (0..<3).map { _ in try PostgresShop.client(port) }
    for (index, client) in orders.enumerated() {
      try client.send("ORDER banana\n")
      // Before, the node waited for each barrier before its next transaction: the second never came.
      try waitUntil { try head() == before + index + 1 }
    }
    // Nothing is answered before its flush, and these show the moment for an early answer has
    // passed: the third commit shows the writer is done with the second (a writer answering at
    // its commit would have handed that answer to the loop by then); the flusher waiting on the
    // lock shows it has done all it does before its barrier for the first; and a reply to alice
    // on the one loop shows the loop has written whatever either had handed it by then.
    try waitUntil { try flushWaits() }
    #expect(try alice.request("PING").isOK)
    for (index, client) in orders.enumerated() {
      #expect(Self.unanswered(client), "order \(index + 1) was answered before its flush")
    }

    try holder.execute("ROLLBACK")
    for client in orders { #expect(try client.readReply().isOK) }
    #expect(try alice.request("STOCK banana").rows.first?["stock"] == "\(level - 3)")
  }
}

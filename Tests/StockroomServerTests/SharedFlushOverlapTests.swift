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
@Suite(.serialized)
struct SharedFlushOverlapTests {
  /// Whether the client has nothing to read: no reply has come.
  private static func unanswered(_ client: LineClient) -> Bool {
    var waiting = pollfd(fd: client.fd, events: Int16(POLLIN), revents: 0)
    return poll(&waiting, 1, 0) == 0
  }

  @Test("a node commits its next change while the last one's flush waits, and answers neither before it")
  func commitsGoOnWhileAFlushWaits() throws {
    let url = try PostgresShop.withAccounts(in: PostgresCluster.shared.get())
    let (daemon, port) = try PostgresShop.node(url)
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
    try holder.execute("BEGIN")
    _ = try holder.query("SELECT flushes FROM node_flushes WHERE node = $1 FOR UPDATE", [node])

    let first = try PostgresShop.client(port)
    try first.send("ORDER banana\n")
    try waitUntil { try head() == before + 1 }
    let second = try PostgresShop.client(port)
    try second.send("ORDER banana\n")
    // Before, the node waited for each barrier before its next transaction: this never came.
    try waitUntil { try head() == before + 2 }
    #expect(Self.unanswered(first) && Self.unanswered(second), "an order was answered before its flush")

    try holder.execute("ROLLBACK")
    #expect(try first.readReply().isOK)
    #expect(try second.readReply().isOK)
    #expect(try alice.request("STOCK banana").rows.first?["stock"] == "\(level - 2)")
  }
}

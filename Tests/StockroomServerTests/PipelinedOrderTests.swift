import Foundation
import StockroomProtocol
import StockroomStorage
import StockroomTestSupport
import Testing

/// One reply semantics on every store, shown the same way on each: a client pipelines orders, a
/// read and a PING in one write. Every order is taken at once, without waiting for the one
/// before it to be saved (on SQLite each is applied as it is read; on PostgreSQL each is queued
/// for the writer, which takes them into one transaction); nothing is answered before its
/// commit; the replies come in request order; and the read shows every order before it.
@Suite(.serialized, .timeLimit(.minutes(30)))
struct PipelinedOrderTests {
  static let orders = 8

  /// The pipeline: orders, then a read of what they took, then a PING.
  static let pipeline = String(repeating: "ORDER banana\n", count: orders) + "STOCK banana\nPING\n"

  /// Reads the pipeline's replies and checks them: every order answered in turn with the next
  /// order number, the read showing them all, the PING last.
  static func checkReplies(_ client: LineClient, levelBefore: Int) throws {
    var ids: [Int] = []
    for index in 0..<orders {
      let reply = try client.readReply()
      #expect(reply.isOK, "order \(index + 1): \(reply.lines)")
      ids.append(Int(reply.statusFields["order"] ?? "") ?? -1)
    }
    #expect(ids == Array(ids[0]..<ids[0] + orders), "answered in request order")
    let stock = try client.readReply()
    #expect(stock.rows.first?["stock"] == "\(levelBefore - orders)", "the read shows every order before it")
    #expect(try client.readReply().message == "PONG")
  }

  static func level(_ client: LineClient) throws -> Int {
    try #require(Int(try client.request("STOCK banana").rows.first?["stock"] ?? ""))
  }

  /// A daemon on a fresh SQLite shop (its directory, which is removed when released), and staff
  /// (alice) logged in after restocking bananas.
  static func sqliteShop() throws -> (data: DataDirectory, daemon: DaemonProcess, port: UInt16, alice: LineClient) {
    let data = try DataDirectory().addAccount("alice", role: .staff)
    let (daemon, port) = try data.start(["--order-rate", "0"])
    let alice = try LineClient.greeted(port)
    try alice.logInExisting("alice")
    #expect(try alice.request("ADD banana 100").isOK)
    return (data, daemon, port, alice)
  }

  @Test("SQLite: pipelined orders are applied as read, held for their commit, answered in order")
  func onSQLite() throws {
    let (data, daemon, port, alice) = try Self.sqliteShop()
    defer { withExtendedLifetime(data) { daemon.process.terminate() } }
    let before = try Self.level(alice)

    let client = try LineClient.greeted(port)
    try client.send(Self.pipeline)
    try Self.checkReplies(client, levelBefore: before)
  }

  /// The committer writes what a loop's round gathered once the round ends (`roundEnded`), not
  /// from the first change on: orders that one read brings share one group commit. Before, the
  /// first order woke the committer, which wrote whatever had been applied by the time it ran
  /// (one or a few) while the loop went on with the rest, so this read took two commits or more.
  @Test("SQLite: the orders one read brings share one group commit")
  func oneReadOneCommit() throws {
    let (data, daemon, port, alice) = try Self.sqliteShop()
    defer { withExtendedLifetime(data) { daemon.process.terminate() } }
    func figures() throws -> (commits: Int, changes: Int) {
      let info = try #require(try alice.request("INFO store").rows.first)
      return (Int(info["commits"] ?? "") ?? -1, Int(info["committed_changes"] ?? "") ?? -1)
    }
    let before = try figures()

    let orders = 40
    let client = try LineClient.greeted(port)
    try client.send(String(repeating: "ORDER banana\n", count: orders) + "PING\n")
    for index in 0..<orders { #expect(try client.readReply().isOK, "order \(index + 1)") }
    #expect(try client.readReply().message == "PONG")
    let after = try figures()
    #expect(after.changes - before.changes == orders)
    #expect(after.commits - before.commits == 1, "\(after.commits - before.commits) commits for one read's orders")
  }

  @Test("PostgreSQL: pipelined orders are all queued for the writer at once, held for their commit, answered in order")
  func onPostgreSQL() throws {
    let url = try PostgresShop.withAccounts(in: PostgresCluster.shared.get())
    let (daemon, port) = try PostgresShop.node(url)
    defer { daemon.process.terminate() }
    let alice = try PostgresShop.client(port, as: "alice")
    #expect(try alice.request("ADD banana 100").isOK)
    let before = try Self.level(alice)
    let store = try PostgresConnection(PostgresURL(url))
    func changes() throws -> Int { Int(try store.query("SELECT count(*) FROM changes").values.first?[0] ?? "") ?? -1 }
    let changesBefore = try changes()

    // The test holds the store's writers' lock, so the node's writer waits in its transaction
    // with the first order while the client's others arrive.
    let holder = try PostgresShop.holdWritersLock(url)
    let client = try PostgresShop.client(port)
    // The first order first, until the writer waits for the lock with it: whatever the writer
    // takes when it wakes is then that one alone, and the rest of the pipeline queues behind.
    try client.send("ORDER banana\n")
    try PostgresShop.waitForWriterBehindLock(holder)
    try client.send(String(Self.pipeline.dropFirst("ORDER banana\n".count)))
    // Before, the connection took no request until its change was answered: the other orders
    // never reached the writer's queue, and this never came true.
    try waitUntil {
      try alice.request("INFO store").rows.first?["changes_waiting"] == "\(Self.orders - 1)"
    }
    try holder.execute("ROLLBACK")
    try Self.checkReplies(client, levelBefore: before)
    // Those that arrived while the writer waited for the lock joined its transaction: one change.
    #expect(try changes() == changesBefore + 1)
    #expect(try PostgresShop.orderIDs(url).count >= Self.orders)
  }
}

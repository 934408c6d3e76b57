import StockroomDomain
import StockroomStorage
import StockroomTestSupport
import Testing

/// The flush barrier a node forces after a commit that did not wait for its own flush, and the
/// rows it leaves, against a real throw-away server.
@Suite(.serialized, .timeLimit(.minutes(30)))
struct PostgresFlushTests {
  private func store(fsync: FsyncPolicy = .always) throws -> (PostgresShopDatabase, PostgresConnection) {
    let cluster = try PostgresCluster.shared.get()
    let name = "flush_\(UInt32.random(in: 0...UInt32.max))"
    try PostgresConnection(PostgresURL(cluster.url)).execute("CREATE DATABASE \(name)")
    let url = try PostgresURL("postgresql://stockroom@127.0.0.1:\(cluster.port)/\(name)")
    return (try PostgresShopDatabase(url: url, fsync: fsync), try PostgresConnection(url))
  }

  /// Logs `count` empty changes after the head, as a node's commit leaves them before its barrier.
  private func logChanges(_ count: Int, on connection: PostgresConnection) throws {
    for _ in 1...count {
      try connection.execute(
        """
        INSERT INTO changes(seq, node, mutations, digest) SELECT seq + 1, 'other:1', '[]', '' FROM change_head;
        UPDATE change_head SET seq = seq + 1
        """)
    }
  }

  @Test func aBarrierWritesTheNodesOwnRowEachTimeWithTheHeadItConfirmed() throws {
    let (database, connection) = try store()
    #expect(database.flushesSeparately)
    for _ in 1...3 { try database.flushBarrier(node: "host:1") }
    try logChanges(2, on: connection)
    try database.flushBarrier(node: "host:2")
    let rows = try connection.query("SELECT node, flushes, seq FROM node_flushes ORDER BY node").values
    #expect(rows == [["host:1", "3", "0"], ["host:2", "1", "2"]])
  }

  @Test func aDurableCatchUpStopsAtTheLastChangeABarrierConfirmed() throws {
    let (database, connection) = try store()
    try logChanges(2, on: connection)
    try database.flushBarrier(node: "other:1")
    try logChanges(1, on: connection)
    let durable = try database.changesThroughHead(after: 0, reach: .durableHead)
    #expect(durable.head == 2 && durable.changes?.map(\.sequence) == [1, 2] && durable.flushed)
    let head = try database.changesThroughHead(after: 0, reach: .head)
    #expect(head.head == 3 && head.changes?.map(\.sequence) == [1, 2, 3])
    // Behind this node's own position, the durable head brings nothing.
    let behind = try database.changesThroughHead(after: 3, reach: .durableHead)
    #expect(behind.head == 2 && behind.changes?.isEmpty == true)
  }

  @Test func withoutBarriersTheDurableReachIsTheHead() throws {
    let (database, connection) = try store(fsync: .batch(milliseconds: 1000))
    try logChanges(2, on: connection)
    let read = try database.changesThroughHead(after: 0, reach: .durableHead)
    #expect(read.head == 2 && read.changes?.count == 2)
  }

  @Test func aBarrierAnnouncesTheChangeItConfirmed() throws {
    let (database, connection) = try store()
    let feed = PostgresChangeFeed(url: database.url)
    try feed.listen()
    try logChanges(7, on: connection)
    try database.flushBarrier(node: "host:1")
    var heard: Int?
    for _ in 1...200 where heard == nil { heard = try feed.newest(waitingUpTo: 50) }
    #expect(heard == 7)
  }

  @Test func aConfirmationLeftUnannouncedIsAnnouncedLaterWithTheHeadItConfirmed() throws {
    let (database, connection) = try store()
    let feed = PostgresChangeFeed(url: database.url)
    try feed.listen()
    try logChanges(4, on: connection)
    try database.confirmCommitted(node: "host:1", announcing: false)
    let rows = try connection.query("SELECT flushes, seq FROM node_flushes WHERE node = 'host:1'").values
    #expect(rows == [["1", "4"]])
    // A marker sent after it: notifications arrive in commit order, so had the barrier
    // announced 4, the feed would hear it first (or with the marker, and name the larger).
    try connection.execute("SELECT pg_notify('\(PostgresShopDatabase.changeChannel)', '0')")
    var heard: Int?
    for _ in 1...200 where heard == nil { heard = try feed.newest(waitingUpTo: 50) }
    #expect(heard == 0, "the barrier announced though told not to")
    try logChanges(1, on: connection)
    try database.announceFlushed(node: "host:1")
    heard = nil
    for _ in 1...200 where heard == nil { heard = try feed.newest(waitingUpTo: 50) }
    #expect(heard == 4, "the announcement names the change the barrier confirmed, not the head")
  }

  @Test func aStoppedNodesRowIsPrunedAndARunningOnesKept() throws {
    let (database, connection) = try store()
    try database.flushBarrier(node: "gone:7")
    try connection.query("UPDATE node_flushes SET at = now() - interval '2 days' WHERE node = 'gone:7'")
    try database.flushBarrier(node: "here:8")
    try database.pruneNodeFlushes(olderThan: 86_400)
    #expect(try connection.query("SELECT node FROM node_flushes").values.map { $0[0] } == ["here:8"])
  }

  @Test func onlyAlwaysLeavesTheFlushToTheBarrier() throws {
    #expect(try store(fsync: .batch(milliseconds: 1000)).0.flushesSeparately == false)
    #expect(try store(fsync: .off).0.flushesSeparately == false)
  }
}

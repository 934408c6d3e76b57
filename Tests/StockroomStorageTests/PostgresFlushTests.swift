import StockroomStorage
import StockroomTestSupport
import Testing

/// The flush barrier a node forces after a commit that did not wait for its own flush, and the
/// rows it leaves, against a real throw-away server.
@Suite(.serialized)
struct PostgresFlushTests {
  private func store(fsync: FsyncPolicy = .always) throws -> (PostgresShopDatabase, PostgresConnection) {
    let cluster = try PostgresCluster.shared.get()
    let name = "flush_\(UInt32.random(in: 0...UInt32.max))"
    try PostgresConnection(PostgresURL(cluster.url)).execute("CREATE DATABASE \(name)")
    let url = try PostgresURL("postgresql://stockroom@127.0.0.1:\(cluster.port)/\(name)")
    return (try PostgresShopDatabase(url: url, fsync: fsync), try PostgresConnection(url))
  }

  @Test func aBarrierWritesTheNodesOwnRowEachTime() throws {
    let (database, connection) = try store()
    #expect(database.flushesSeparately)
    for _ in 1...3 { try database.flushBarrier(node: "host:1") }
    try database.flushBarrier(node: "host:2")
    let rows = try connection.query("SELECT node, flushes FROM node_flushes ORDER BY node").values
    #expect(rows.map { [$0[0], $0[1]] } == [["host:1", "3"], ["host:2", "1"]])
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

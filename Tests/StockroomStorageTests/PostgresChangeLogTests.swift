import Foundation
import StockroomDomain
import StockroomStorage
import StockroomTestSupport
import Testing

/// The change log across schema 6, against a real throw-away server: a store whose log was
/// written in the text forms before it still replays them after the upgrade, and new changes
/// go into `record` in `MutationRecord`'s form.
@Suite(.serialized, .timeLimit(.minutes(30)))
struct PostgresChangeLogTests {
  private static let at = Date(timeIntervalSinceReferenceDate: 786_543_210.123_456_7)

  /// A fresh database at schema `version`, and a connection to it.
  private func database(at version: Int) throws -> (PostgresURL, PostgresConnection) {
    let cluster = try PostgresCluster.shared.get()
    let name = "changelog_\(UInt32.random(in: 0...UInt32.max))"
    try PostgresConnection(PostgresURL(cluster.url)).execute("CREATE DATABASE \(name)")
    let url = try PostgresURL("postgresql://stockroom@127.0.0.1:\(cluster.port)/\(name)")
    let connection = try PostgresConnection(url)
    try PostgresSchema.migrate(connection, to: version)
    return (url, connection)
  }

  @Test func changesLoggedBeforeSchema6AreReplayedAfterTheUpgradeAndNewOnesAreRecords() throws {
    let (url, connection) = try database(at: 5)
    let order = Mutation.order(user: "alice", lines: [ItemCount("banana_juice", 1)], at: Self.at)
    let diary = Mutation.deleteDiary(id: 3, owner: "alice")
    // As a node of schema 5 logged them: orders in the compact form, anything else as JSON.
    let json = String(decoding: try JSONEncoder().encode([diary]), as: UTF8.self)
    try connection.query(
      """
      INSERT INTO changes(seq, node, mutations, digest) VALUES
        (1, 'old:1', '~1;o 5:alice 1 12:banana_juice 1 41c770d9350fcd6e -', 'd1'), (2, 'old:1', $1, 'd2')
      """, [json])
    try connection.execute("UPDATE change_head SET seq = 2")

    let store = try PostgresShopDatabase(url: url, fsync: .off)
    let version = try connection.query("SELECT max(version) AS version FROM stockroom_schema")[0, "version"]
    #expect(version == String(PostgresSchema.currentVersion))
    let caughtUp = try store.changesThroughHead(after: 0)
    #expect(caughtUp.head == 2)
    #expect(caughtUp.changes?.map(\.mutations) == [[order], [diary]])
    #expect(caughtUp.changes?.map(\.digest) == ["d1", "d2"])

    let account = Mutation.setPassword(name: "alice", hash: "$argon2id$secret", at: Self.at)
    var missed: [ChangeRecord] = []
    let head = try store.commitChange(after: 0, node: "new:1") { records in
      missed = records
      return PreparedChange(
        batch: JournalBatch(), mutations: [order, account], digest: "d3", countersBefore: ShopCounters())
    }
    #expect(head == 3)
    #expect(missed.map(\.sequence) == [1, 2])
    let row = try connection.query(
      "SELECT mutations, get_byte(record, 0) AS layout, node FROM changes WHERE seq = 3")
    #expect(row[0, "mutations"] == nil)
    #expect(row[0, "layout"] == "2")
    #expect(try store.changesThroughHead(after: 2).changes?.map(\.mutations) == [[order, account]])
    // A node's write in one form only: the old column and the new together are refused.
    #expect(throws: PostgresError.self) {
      try connection.execute(
        "INSERT INTO changes(seq, node, mutations, record, digest) VALUES (9, 'x', '[]', '\\x02', '')")
    }
  }
}

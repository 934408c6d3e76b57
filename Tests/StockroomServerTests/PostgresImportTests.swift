import Foundation
import StockroomProtocol
import StockroomStorage
import StockroomTestSupport
import Synchronization
import Testing

@testable import StockroomEngineHarness

/// `stockroomd migrate` and `stockroomd import` as an operator runs them: the real executable,
/// a SQLite shop made by the engine, a real PostgreSQL cluster.
@Suite(.serialized, .timeLimit(.minutes(30)))
struct PostgresImportTests {
  static let cluster = PostgresCluster.shared

  /// What one `stockroomd migrate|import` run did.
  private struct Run {
    var status: Int32
    var output: String
    var errors: String
  }

  private func stockroomd(_ arguments: [String]) throws -> Run {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let files = ["out", "err"].map { scratch.appendingPathComponent($0).path }
    let status = try Subprocess.run(
      DaemonProcess.binary.path, arguments, environment: ["PATH": "/usr/bin:/bin"], stdout: files[0],
      stderr: files[1])
    let read = { (path: String) in
      String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data(), as: UTF8.self)
    }
    return Run(status: status, output: read(files[0]), errors: read(files[1]))
  }

  /// A new, empty database in the suite's cluster, and its URL.
  private func freshDatabase() throws -> String {
    let cluster = try Self.cluster.get()
    let name = "shop_\(UInt32.random(in: 0...UInt32.max))"
    try PostgresConnection(PostgresURL(cluster.url)).execute("CREATE DATABASE \(name)")
    return "postgresql://stockroom@127.0.0.1:\(cluster.port)/\(name)"
  }

  private func count(_ table: String, in connection: PostgresConnection) throws -> Int {
    Int(try connection.query("SELECT count(*) AS n FROM \(table)")[0, "n"] ?? "") ?? -1
  }

  @Test func migrateMakesTheTablesOnceThenHasNothingToDo() throws {
    let url = try freshDatabase()
    let first = try stockroomd(["migrate", "--store", url])
    #expect(first.status == 0, "\(first.errors)")
    #expect(first.output.contains("from schema version 0 to \(PostgresSchema.currentVersion)"))
    let second = try stockroomd(["migrate", "--store", url])
    #expect(second.status == 0)
    #expect(second.output.contains("nothing to do"))
    let connection = try PostgresConnection(PostgresURL(url))
    #expect(
      try connection.query("SELECT version FROM stockroom_schema").values == [[String(PostgresSchema.currentVersion)]])
  }

  @Test func nodesMigratingAtOnceTakeTurns() throws {
    let url = try PostgresURL(try freshDatabase())
    let results = Mutex<[(from: Int, to: Int)]>([])
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      guard let connection = try? PostgresConnection(url), let result = try? PostgresSchema.migrate(connection)
      else { return }
      results.withLock { $0.append(result) }
    }
    let all = results.withLock { $0 }
    #expect(all.count == 4)
    #expect(all.filter { $0.from == 0 }.count == 1)
    #expect(all.allSatisfy { $0.to == PostgresSchema.currentVersion })
  }

  @Test func importCopiesEveryTableAndTheStockStillBalances() throws {
    let data = try DataDirectory()
    try data.addAccount("alice", role: .staff)
    try data.addAccount("bob", role: .customer)
    // The engine makes the shop on SQLite as a server would: restocks, orders (one keyed), a
    // product, diary entries; leaving the block stops it.
    let stock: [Row]
    do {
      let engine = try EngineHarness(data: data)
      let alice = try engine.client(as: "alice", role: .staff)
      for request in [
        "ADD banana 7", "ADD strawberry 20", "ORDER banana_juice 2", "ORDER strawberry_juice key=first-order",
        "PRODUCT NEW name=Tteok price=3000 stock=4", #"DIARY NEW "장보기" "딸기 16개\n바나나 5개""#,
      ] {
        let reply = try alice.request(request)
        #expect(reply.isOK, "\(request): \(reply.lines)")
      }
      let bob = try engine.client(as: "bob")
      #expect(try bob.request(#"DIARY NEW secret "bob's own""#).isOK)
      stock = try alice.request("STOCK").rows
      #expect(stock.count > 5)
    }

    data.waitUntilUnlocked()
    let url = try freshDatabase()
    let output = try stockroomd(["import", "--data", data.path, "--store", url])
    #expect(output.status == 0, "\(output.errors)")
    #expect(output.output.contains("imported"))
    let connection = try PostgresConnection(PostgresURL(url))
    #expect(try count("orders", in: connection) == 2)
    #expect(try count("order_keys", in: connection) == 1)
    // alice, bob, and the admin every engine harness makes.
    #expect(try count("accounts", in: connection) == 3)
    #expect(try count("diary", in: connection) == 2)
    #expect(try count("products", in: connection) == 1)
    // Every level the server showed is the level PostgreSQL holds.
    for row in stock {
      let level = try connection.query("SELECT current FROM stock WHERE item = $1", [row.id])
      #expect(level.count == 1 && level[0, "current"] == row["stock"], "\(row.id ?? "?")")
    }
    let diary = try connection.query("SELECT owner, number, title, body FROM diary ORDER BY id")
    #expect(diary.values == [["alice", "1", "장보기", "딸기 16개\n바나나 5개"], ["bob", "1", "secret", "bob's own"]])
    // The ledger's numbering goes on after the copied rows.
    let last = Int(try connection.query("SELECT max(seq) AS seq FROM ledger")[0, "seq"] ?? "") ?? 0
    let next = try connection.query(
      "INSERT INTO ledger(item, change, cause, user_name, at) VALUES ('banana', 0, 'restock', 'x', now()) RETURNING seq"
    )
    #expect((Int(next[0, "seq"] ?? "") ?? 0) > last)
    // The password hashes came across, and nothing printed one.
    let hash = try connection.query("SELECT hash FROM accounts WHERE name = 'alice'")[0, "hash"]
    #expect(hash?.hasPrefix("$argon2id$") == true)
    #expect(!output.output.contains("argon2") && !output.errors.contains("argon2"))

    // A second import into the same store is refused and changes nothing.
    let again = try stockroomd(["import", "--data", data.path, "--store", url])
    #expect(again.status == 1)
    #expect(again.errors.contains("already holds a shop"))
    #expect(try count("orders", in: connection) == 2)
  }

  @Test func anImportWhoseLedgerDisagreesIsUndone() throws {
    let data = try DataDirectory()
    try data.addAccount("kim", role: .staff)
    let (daemon, port) = try data.start()
    let kim = try LineClient(port: port)
    _ = try kim.readReply()
    try kim.logInExisting("kim")
    #expect(try kim.request("ADD kiwi 3").isOK)
    daemon.process.terminate()
    _ = try daemon.waitForExit()
    // Edited by hand: the stock row still balances, but the ledger no longer agrees with it.
    try SQLiteDatabase(path: data.database).execute(
      "UPDATE ledger SET change = 2 WHERE item = 'kiwi' AND cause = 'restock'")
    data.waitUntilUnlocked()
    let url = try freshDatabase()
    let output = try stockroomd(["import", "--data", data.path, "--store", url])
    #expect(output.status == 1)
    #expect(output.errors.contains("kiwi"))
    // Refused before anything was written: not even the tables were made.
    let connection = try PostgresConnection(PostgresURL(url))
    #expect(try connection.query("SELECT to_regclass('stock') AS stock")[0, "stock"] == nil)
  }

  @Test func aStoreThatCannotBeReachedSaysSoWithoutThePassword() throws {
    let down = try stockroomd(["migrate", "--store", "postgresql://alice:hunter22-secret@127.0.0.1:1/shop"])
    #expect(down.status == 69)
    #expect(down.errors.contains("cannot connect"))
    #expect(!down.errors.contains("hunter22") && !down.output.contains("hunter22"))
    let usage = try stockroomd(["import", "--data", "/nonexistent"])
    #expect(usage.status == 64)
    #expect(usage.errors.contains("--store"))
  }
}

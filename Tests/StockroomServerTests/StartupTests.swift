import Foundation
import StockroomProtocol
import StockroomServer
import StockroomStorage
import Testing

@testable import StockroomEngineHarness

@Suite("Start-up of a saved shop", .timeLimit(.minutes(30)))
struct StartupTests {
  @Test("the whole-file checks run after the server is serving; a ledger that disagrees refuses writes, not reads")
  func ledgerCheckedInBackground() throws {
    let data = try DataDirectory().addAccount()
    do {
      #expect(try EngineHarness(data: data).client(as: "clerk", role: .staff).request("ADD kiwi 5").isOK)
    }
    // The engine may outlive the statement that made it for a moment (a worker thread still
    // holding it); its stop folds the ADD into the tables, and a fold after the edit below would
    // write the stock row over it. Its locks go only after that stop.
    data.waitUntilUnlocked()
    // The stock row still balances by itself; only its ledger says otherwise.
    try SQLiteDatabase(path: data.database).execute(
      "UPDATE stock SET restocked = restocked + 1, current = current + 1 WHERE item = 'kiwi'")

    let log = try LogCapture()
    let client = try EngineHarness(data: data, logger: log.logger).client(as: "clerk", role: .staff)
    #expect(log.waitFor("stock of kiwi disagrees with its ledger", within: 60), "\(log.text)")
    try waitUntil { (try? client.request("INFO").rows[0]["read_only"]) == "yes" }
    #expect(try client.request("STOCK kiwi").rows[0]["stock"] == "16", "reads go on")
    #expect(try client.request("ADD kiwi 1").errorCode == .readOnly)
    #expect(log.text.contains(data.database))
  }

  @Test("a sound file logs that it was verified, and how long opening and loading took")
  func verifiedAndTimed() throws {
    let data = try DataDirectory().addAccount()
    let log = try LogCapture()
    let engine = try EngineHarness(data: data, logger: log.logger)
    #expect(try engine.client(as: "clerk", role: .staff).request("ORDER banana_juice key=k").isOK)
    #expect(log.waitFor("verified \(data.database)", within: 60), "\(log.text)")
    let storage = try #require(log.text.split(separator: "\n").first { $0.contains("storage sqlite") })
    #expect(storage.contains(" open_ms=") && storage.contains(" load_ms=") && storage.contains(" order_keys=0"))
    #expect(try engine.client(as: "clerk", role: .staff).request("INFO").rows[0]["read_only"] == "no")
  }

  @Test("stop waits for the background check: when it returns the check has finished and logged")
  func stopJoinsTheCheck() throws {
    let data = try DataDirectory().addAccount()
    // A ledger long enough that its check takes far longer than a stop (the sums still agree:
    // every line moves nothing).
    try SQLiteDatabase(path: data.database).execute(
      """
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000)
      INSERT INTO ledger(item, change, cause, order_id, user, at) SELECT 'kiwi', 0, 'restock', NULL, 'x', 0 FROM n
      """)
    let log = try LogCapture()
    var configuration = ServerConfiguration()
    configuration.port = 0
    configuration.dataDirectory = data.path
    let catalog = try CatalogSource.load(path: TestServer.catalogPath, initialStock: nil)
    let server = try Server.open(configuration: configuration, catalog: catalog, catalogText: "{}", logger: log.logger)
    try server.start()
    server.stop()
    try log.caughtUp()
    #expect(log.text.contains("verified \(data.database)"), "\(log.text)")
  }

  @Test("after a restart LIST orders pages through the file and the orders made since, with none missing")
  func ordersAfterRestart() throws {
    let data = try DataDirectory().addAccount()
    do {
      // The engine alone: gone at the end of this block, its committer stopped as a server's is.
      let engine = try EngineHarness(data: data, initialStock: 1000)
      let client = try engine.client(as: "clerk", role: .staff)
      for _ in 0..<30 { #expect(try client.request("ORDER banana").isOK) }
    }
    let engine = try EngineHarness(data: data, initialStock: 1000)
    let client = try engine.client(as: "clerk", role: .staff)
    for _ in 0..<3 { #expect(try client.request("ORDER kiwi").isOK) }
    var ids: [String] = []
    for page in 1...4 {
      let reply = try client.request("LIST orders size=10 page=\(page)")
      #expect(reply.statusFields["total"] == "33")
      ids += reply.rows.compactMap(\.id)
    }
    #expect(ids == (1...33).reversed().map { "\($0)" })
    #expect(try client.request("INFO").rows[0]["orders_listed"] == "33")
  }
}

import Foundation
import StockroomProtocol
import StockroomStorage
import Testing

@Suite("Start-up of a saved shop")
struct StartupTests {
  @Test("the whole-file checks run after the server is serving; a ledger that disagrees refuses writes, not reads")
  func ledgerCheckedInBackground() throws {
    let data = try DataDirectory().addAccount()
    var (daemon, port) = try data.start()
    defer { daemon.process.terminate() }
    #expect(try LineClient.greeted(port, user: "clerk", role: .staff).request("ADD kiwi 5").isOK)
    daemon.process.terminate()
    _ = try daemon.waitForExit()
    // The stock row still balances by itself; only its ledger says otherwise.
    try SQLiteDatabase(path: data.database).execute(
      "UPDATE stock SET restocked = restocked + 1, current = current + 1 WHERE item = 'kiwi'")

    (daemon, port) = try data.start()
    let client = try LineClient.greeted(port, user: "clerk", role: .staff)
    try waitUntil { daemon.log.contains("stock of kiwi disagrees with its ledger") }
    try waitUntil { (try? client.request("INFO").rows[0]["read_only"]) == "yes" }
    #expect(try client.request("STOCK kiwi").rows[0]["stock"] == "16", "reads go on")
    #expect(try client.request("ADD kiwi 1").errorCode == .readOnly)
    #expect(daemon.log.contains(data.database))
  }

  @Test("a sound file logs that it was verified, and how long opening and loading took")
  func verifiedAndTimed() throws {
    let data = try DataDirectory().addAccount()
    let (daemon, port) = try data.start()
    defer { daemon.process.terminate() }
    #expect(try LineClient.greeted(port, user: "clerk", role: .staff).request("ORDER banana_juice key=k").isOK)
    #expect(daemon.logShows("verified \(data.database)"))
    let storage = try #require(daemon.log.split(separator: "\n").first { $0.contains("storage sqlite") })
    #expect(storage.contains(" open_ms=") && storage.contains(" load_ms=") && storage.contains(" order_keys=0"))
    #expect(try LineClient.greeted(port, user: "clerk", role: .staff).request("INFO").rows[0]["read_only"] == "no")
  }

  @Test("after a restart LIST orders pages through the file and the orders made since, with none missing")
  func ordersAfterRestart() throws {
    let data = try DataDirectory().addAccount()
    var (daemon, port) = try data.start(["--initial-stock", "1000"])
    defer { daemon.process.terminate() }
    var client = try LineClient.greeted(port, user: "clerk", role: .staff)
    for _ in 0..<30 { #expect(try client.request("ORDER banana").isOK) }
    daemon.process.terminate()
    _ = try daemon.waitForExit()
    (daemon, port) = try data.start(["--initial-stock", "1000"])
    client = try LineClient.greeted(port, user: "clerk", role: .staff)
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

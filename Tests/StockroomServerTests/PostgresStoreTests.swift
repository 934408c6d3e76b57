import Foundation
import StockroomProtocol
import StockroomStorage
import StockroomTestSupport
import Testing

/// `stockroomd --store postgresql://...`: one node serving a shop kept in PostgreSQL, as a real
/// process against a real cluster, with `kill -9` and a database that goes away.
@Suite(.serialized, .timeLimit(.minutes(30)))
struct PostgresStoreTests {
  private func storeWithAccounts(in cluster: PostgresCluster) throws -> String {
    try PostgresShop.withAccounts(in: cluster)
  }

  private func node(_ url: String) throws -> (DaemonProcess, UInt16) { try PostgresShop.node(url) }

  private func client(_ port: UInt16, as user: String? = nil) throws -> LineClient {
    try PostgresShop.client(port, as: user)
  }

  @Test("every acknowledged change is in PostgreSQL after kill -9; a keyed retry answers the same and takes nothing")
  func durableAcrossKill9() throws {
    let url = try storeWithAccounts(in: try PostgresCluster.shared.get())
    var (daemon, port) = try node(url)
    // The log names the store in its redacted form, as libpq parsed it.
    #expect(daemon.logShows("storage postgresql url=user=stockroom"))
    let alice = try client(port, as: "alice")
    for request in [
      "ADD banana 7", "ADD strawberry 20", "ORDER banana_juice 2", "PRODUCT NEW name=Tteok price=3000 stock=4",
      #"DIARY NEW "장보기" "딸기 16개\n바나나 5개""#,
    ] {
      let reply = try alice.request(request)
      #expect(reply.isOK, "\(request): \(reply.lines)")
    }
    let keyed = try alice.request("ORDER strawberry_juice key=first")
    #expect(keyed.isOK, "\(keyed.lines)")
    let bob = try client(port)
    #expect(try bob.request(#"REGISTER bob "bob-password-1""#).isOK)
    #expect(try bob.request(#"DIARY NEW secret "bob's own""#).isOK)
    let stock = try alice.request("STOCK").lines
    _ = try daemon.kill9()

    (daemon, port) = try node(url)
    defer { daemon.process.terminate() }
    let again = try client(port, as: "alice")
    #expect(try again.request("STOCK").lines == stock)
    #expect(try again.request("ORDER strawberry_juice key=first").lines == keyed.lines)
    #expect(try again.request("STOCK").lines == stock, "the retry took nothing")
    #expect(try again.request("DIARY SHOW 1").rows.first?["body"] == "딸기 16개\n바나나 5개")
    #expect(try again.request("LIST orders").rows.count == 2)
    let bobAgain = try client(port)
    #expect(try bobAgain.request(#"LOGIN bob "bob-password-1""#).isOK)
    #expect(try bobAgain.request("DIARY LIST").rows.map { $0["title"] } == ["secret"])
    #expect(try again.request("STOCKTAKE banana").isOK)
  }

  @Test("a store whose ledger disagrees with its stock is found by the check after start, and writes are refused")
  func damagedLedgerRefusesWrites() throws {
    let url = try storeWithAccounts(in: try PostgresCluster.shared.get())
    // A first start writes the catalogue's stock rows; then the store is edited behind its back.
    let (first, _) = try node(url)
    first.process.terminate()
    #expect(try first.waitForExit() == 0)
    let connection = try PostgresConnection(PostgresURL(url))
    // Balanced in itself (the table's CHECK holds), but no ledger row says kiwi was restocked.
    try connection.query(
      "UPDATE stock SET restocked = restocked + 5, current = current + 5 WHERE item = 'kiwi'")
    let (daemon, port) = try node(url)
    defer { daemon.process.terminate() }
    #expect(daemon.logShows("the stock of kiwi disagrees with its ledger"), "\(daemon.log)")
    let alice = try client(port, as: "alice")
    #expect(try alice.request("ORDER banana_juice").errorCode == .readOnly)
    #expect(try alice.request("STOCK kiwi").rows.first?["stock"] == "15", "reads go on")
  }

  @Test("while PostgreSQL is down writes are refused; when it is back the node recovers by itself, losing nothing")
  func databaseGoesAwayAndComesBack() throws {
    let cluster = try PostgresCluster()
    defer { cluster.remove() }
    let url = try storeWithAccounts(in: cluster)
    let (daemon, port) = try node(url)
    defer { daemon.process.terminate() }
    let alice = try client(port, as: "alice")
    #expect(try alice.request("ORDER banana_juice").isOK)
    try cluster.stop()
    let refused = try alice.request("ORDER banana_juice")
    #expect(refused.errorCode == .unavailable, "\(refused.lines)")
    let later = try alice.request("ORDER banana_juice")
    #expect(later.errorCode == .unavailable, "\(later.lines)")
    #expect(try alice.request("INFO").rows.first?["read_only"] == "yes")
    #expect(try alice.request("STOCK banana").isOK, "reads go on")
    try cluster.start()
    // The committer probes the database every 100 ms or so; wait for writes to be taken again.
    let deadline = Date().addingTimeInterval(30)
    var taken = false
    while !taken && Date() < deadline {
      taken = try alice.request("ORDER banana_juice").isOK
      if !taken { usleep(100_000) }
    }
    #expect(taken, "writes were still refused 30 s after PostgreSQL came back")
    // Two orders were acknowledged (one before, one after): banana went 10 → 8 → 6.
    #expect(try alice.request("STOCK banana").rows.first?["stock"] == "6")
    let connection = try PostgresConnection(PostgresURL(url))
    #expect(try connection.query("SELECT count(*) AS n FROM orders")[0, "n"] == "2")
  }
}

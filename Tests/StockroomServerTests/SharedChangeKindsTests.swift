import Foundation
import StockroomStorage
import StockroomTestSupport
import Testing

/// Every kind of change one node makes reaches another through the change log's record
/// (`MutationRecord`), and the other's replay ends where the first node's shop did (its digest
/// agrees, so it never loads the whole shop again).
@Suite(.serialized, .timeLimit(.minutes(30)))
struct SharedChangeKindsTests {
  @Test("products, diary entries, accounts and keyed orders made on one node are replayed on another, no reload")
  func everyKindReplays() throws {
    let url = try PostgresShop.withAccounts(in: PostgresCluster.shared.get())
    let (first, firstPort) = try PostgresShop.node(url)
    defer { first.process.terminate() }
    let (second, secondPort) = try PostgresShop.node(url)
    defer { second.process.terminate() }
    let watcher = try PostgresShop.client(secondPort, as: "alice")
    let before = try #require(try watcher.request("INFO store").rows.first)

    let alice = try PostgresShop.client(firstPort, as: "alice")
    func ok(_ client: LineClient, _ request: String) throws -> String {
      let reply = try client.request(request)
      #expect(reply.isOK, "\(request): \(reply.lines)")
      return reply.lines.joined(separator: "\n")
    }
    _ = try ok(alice, "ADD banana 9 kiwi -1")
    _ = try ok(alice, "ORDER banana_juice key=k-1")
    let product = try #require(
      try ok(alice, "PRODUCT NEW name=Tteok price=3000 stock=4 discount=10%").firstMatch(of: /product=(p\d+)/))
    _ = try ok(alice, "PRODUCT EDIT \(product.1) price=3500 name=\"Rice cake\" discount=none")
    let entry = try #require(try ok(alice, #"DIARY NEW "장보기" "딸기 16개\n바나나 5개""#).firstMatch(of: /diary=(\d+)/))
    _ = try ok(alice, "DIARY EDIT \(entry.1) title=edited")
    let bob = try PostgresShop.client(firstPort)
    _ = try ok(bob, #"REGISTER bob "bob-password-1""#)
    _ = try ok(bob, #"PASSWD "bob-password-1" "bob-password-2""#)
    _ = try ok(bob, #"DIARY NEW gone "soon""#)
    _ = try ok(bob, "DIARY DELETE 1")

    // A linearizable read on the second node catches up with all of it first; then it shows
    // what the first shows.
    for request in ["STOCK", "LIST products", "DIARY LIST", "LIST orders"] {
      let there = try watcher.request(request).lines
      #expect(there == (try alice.request(request).lines), "\(request)")
    }
    #expect(try watcher.request("DIARY LIST").rows.map { $0["title"] } == ["edited"])
    let bobThere = try PostgresShop.client(secondPort)
    _ = try ok(bobThere, #"LOGIN bob "bob-password-2""#)
    #expect(try bobThere.request("DIARY LIST").rows.isEmpty)
    #expect(
      try watcher.request("ORDER banana_juice key=k-1").lines == alice.request("ORDER banana_juice key=k-1").lines)

    let after = try #require(try watcher.request("INFO store").rows.first)
    let replayed = Int(after["replayed_changes"] ?? "")! - Int(before["replayed_changes"] ?? "")!
    #expect(replayed >= 10, "\(after.encoded)")
    #expect(after["store_reloads"] == before["store_reloads"], "a replay diverged: \(after.encoded)")
    // Written as records, none in the old text column.
    let forms = try PostgresConnection(PostgresURL(url)).query(
      "SELECT count(*) FILTER (WHERE record IS NULL) AS text, count(*) AS all FROM changes")
    #expect(forms[0, "text"] == "0")
  }
}

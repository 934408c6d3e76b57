import Foundation
import StockroomDomain
import StockroomProtocol
import StockroomStorage
import StockroomTestSupport
import Testing

@testable import StockroomEngineHarness
@testable import StockroomServer

@Suite("Order keys: per user, answered from the disk", .timeLimit(.minutes(30)))
struct OrderKeyTests {
  @Test("the same key from two users names two orders; neither sees the other's; retries answer the first reply")
  func keysBelongToTheirUser() throws {
    let data = try DataDirectory().addAccount()
    var (daemon, port) = try data.start()
    defer { daemon.process.terminate() }
    var alice = try LineClient.greeted(port, user: "alice")
    var bob = try LineClient.greeted(port, user: "bob")
    let first = try alice.request("ORDER banana_juice 2 key=k1")
    #expect(first.statusFields["order"] == "1")
    let bobs = try bob.request("ORDER banana_juice 2 key=k1")
    #expect(bobs.statusFields["order"] == "2", "bob's key is his own: \(bobs.lines)")
    #expect(try bob.request("ORDER banana_juice 2 key=k1").lines == bobs.lines)
    let different = try bob.request("ORDER banana_juice 1 key=k1")
    #expect(different.errorCode == .invalid)
    #expect(different.lines.last?.contains("order 2") == true, "names his own order, never alice's")
    #expect(try alice.request("ORDER banana_juice 2 key=k1").lines == first.lines)
    #expect(try alice.request("STOCK banana").rows[0]["stock"] == "2", "two orders of two juices, each taken once")

    // A retry sent right behind the first attempt, before its commit, answers the same.
    try alice.send("ORDER kiwi_juice key=k2\nORDER kiwi_juice key=k2\n")
    let (once, twice) = (try alice.readReply(), try alice.readReply())
    #expect(once.isOK)
    #expect(once.lines == twice.lines)

    _ = try daemon.kill9()
    (daemon, port) = try data.start()
    alice = try LineClient.greeted(port, user: "alice")
    bob = try LineClient.greeted(port, user: "bob")
    #expect(try alice.request("ORDER banana_juice 2 key=k1").lines == first.lines)
    #expect(try bob.request("ORDER banana_juice 2 key=k1").lines == bobs.lines)
    #expect(try alice.request("ORDER kiwi_juice key=k2").lines == once.lines)
    #expect(try alice.request("STOCK banana").rows[0]["stock"] == "2")
    let carol = try LineClient.greeted(port, user: "carol")
    #expect(try carol.request("ORDER banana_juice key=k1").statusFields["order"] == "4")
  }

  @Test("with a database, receipts leave memory once on disk; only a small index of keys stays")
  func receiptsLeaveMemory() throws {
    let data = try DataDirectory().addAccount()
    let server = try EngineHarness(data: data, initialStock: 100_000)
    let client = try server.client(as: "alice")
    let lines = (0..<100).map { _ in "banana" }.joined(separator: " ")
    var replies: [String: [String]] = [:]
    for index in 0..<200 {
      let reply = try client.request("ORDER \(lines) key=k\(index)")
      #expect(reply.isOK)
      replies["k\(index)"] = reply.lines
    }
    try waitUntil { server.shop.read { $0.heldReceiptCount } == 0 }
    #expect(server.shop.read { $0.orderKeyCount } == 200)
    for index in stride(from: 0, to: 200, by: 17) {
      #expect(try client.request("ORDER \(lines) key=k\(index)").lines == replies["k\(index)"])
    }
    #expect(server.shop.read { $0.heldReceiptCount } == 0, "a retry read from the disk is not kept")
  }

  @Test("without a database, where receipts stay in memory, at most 10,000 keys are held")
  func memoryCap() throws {
    let server = try EngineHarness(initialStock: 100_000)
    let client = try server.client(as: "alice")
    let cap = ShopLimits.inMemoryOrderKeys
    var sent = 0
    while sent < cap {
      let batch = min(500, cap - sent)
      try client.send((sent..<sent + batch).map { "ORDER banana key=k\($0)\n" }.joined())
      for _ in 0..<batch { #expect(try client.readReply().isOK) }
      sent += batch
    }
    #expect(cap == 10_000)
    #expect(try client.request("ORDER banana key=one-more").errorCode == .limit)
    #expect(try client.request("ORDER banana key=k0").isOK, "a retry of a held key still answers")
    #expect(try client.request("ORDER banana").isOK, "unkeyed orders go on")
  }
}

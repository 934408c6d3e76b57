import Foundation
import StockroomEngine
import StockroomTransport
import Testing

@testable import StockroomServer

/// The board's `/events`, read with a plain socket as a browser's EventSource reads it.
@Suite("the board's event stream", .timeLimit(.minutes(30)))
struct BoardEventsTests {
  private func boardServer(
    initialStock: Int? = nil, _ configure: @escaping (inout ServerConfiguration) -> Void = { _ in }
  ) throws -> (TestServer, UInt16) {
    let server = try TestServer(initialStock: initialStock) {
      $0.http = ListenAddress(host: "127.0.0.1", port: 0)
      configure(&$0)
    }
    return (server, try server.server.startHTTP())
  }

  /// A stream that has read the snapshot and then reads nothing: its small receive buffer fills
  /// after some 1,000 events.
  private func stalledStream(_ port: UInt16) throws -> EventStreamClient {
    let stalled = try EventStreamClient(port: port, receiveBuffer: 4096)
    _ = try stalled.next()
    return stalled
  }

  /// `count` orders of a banana, pipelined in one write, each answered OK.
  private func orderBananas(_ count: Int, on orders: LineClient) throws {
    try orders.send(String(repeating: "ORDER banana\n", count: count))
    for _ in 0..<count { #expect(try orders.readReply().isOK) }
  }

  private func level(_ board: EventStreamClient.Event, _ item: String) -> Int? {
    let items = board["items"] as? [[String: Any]] ?? []
    return items.first { $0["id"] as? String == item }?["level"] as? Int
  }

  @Test("one event per change, in commit order per item, the same WATCH gives; a reconnect gets a resync")
  func eventsInOrderThenResync() throws {
    let (server, port) = try boardServer()
    let stream = try EventStreamClient(port: port)
    #expect(stream.head.hasPrefix("HTTP/1.1 200 "))
    #expect(stream.head.contains("Content-Type: text/event-stream"))
    let first = try stream.next()
    #expect(first.type == "snapshot" && first.id == 0)
    #expect(level(first, "banana") == 10)
    #expect((first["sections"] as? [[String: Any]])?.count == 3)
    let watcher = try LineClient.greeted(server.port)
    #expect(try watcher.request("WATCH").isOK)
    let orders = try LineClient.greeted(server.port, user: "minji")
    for line in ["ORDER banana 1", "ORDER kiwi 2", "ORDER banana 2", "ORDER banana_juice"] {
      #expect(try orders.request(line).isOK, "\(line)")
    }
    // banana -1, kiwi -2, banana -2, banana -2 (the juice takes two bananas).
    var seen: [(item: String, level: Int)] = []
    var ids: [Int] = []
    while seen.count < 4 {
      let event = try stream.next("stock")
      seen.append((event["item"] as? String ?? "", event["level"] as? Int ?? -1))
      ids.append(event.id ?? -1)
      #expect(event["user"] == nil, "a name reached the board without --http-names")
      #expect(event["cause"] as? String == "order" && event["order"] is Int)
    }
    #expect(seen.map(\.item) == ["banana", "kiwi", "banana", "banana"])
    #expect(seen.map(\.level) == [9, 8, 7, 5])
    #expect(ids == [1, 2, 3, 4])
    let watched = try (0..<4).map { _ in try watcher.readEvent() }
    #expect(watched.map { $0["item"] ?? "" } == seen.map(\.item))
    #expect(watched.map { $0["level"] ?? "" } == seen.map { String($0.level) })

    // Gone for a while, as a browser whose server restarted or whose network dropped: a change
    // made meanwhile reaches it as a resync of the whole board, not as a gap.
    stream.closeNow()
    #expect(try orders.request("ORDER banana 3").isOK)
    let again = try EventStreamClient(port: port, lastEventID: ids.last)
    let resync = try again.next()
    #expect(resync.type == "resync")
    #expect(level(resync, "banana") == 2)
    #expect(try orders.request("ORDER kiwi 1").isOK)
    let after = try again.next("stock")
    #expect(after["item"] as? String == "kiwi" && after["level"] as? Int == 7 && after.id == 1)
  }

  @Test("with --http-names the board shows who ordered")
  func namesWhenTold() throws {
    let (server, port) = try boardServer { $0.httpNames = true }
    let stream = try EventStreamClient(port: port)
    _ = try stream.next()
    let orders = try LineClient.greeted(server.port, user: "minji")
    #expect(try orders.request("ORDER kiwi").isOK)
    #expect(try stream.next("stock")["user"] as? String == "minji")
  }

  @Test("a stats event counts the orders taken and names the newest, so the page counts none twice")
  func statsNameTheNewestOrder() throws {
    let (server, port) = try boardServer()
    let stream = try EventStreamClient(port: port)
    let snapshot = try stream.next()
    #expect((snapshot["stats"] as? [String: Any])?["order"] as? Int == 0)
    let orders = try LineClient.greeted(server.port)
    for line in ["ORDER kiwi", "ORDER banana_juice 2"] { #expect(try orders.request(line).isOK, "\(line)") }
    var stats = try stream.next("stats")
    while stats["orders"] as? Int != 2 { stats = try stream.next("stats") }
    #expect(stats["order"] as? Int == 2)
    #expect(stats["connections"] as? Int == 1)
  }

  @Test("the snapshot's stats list the newest orders as ordered, with what they took, and no one's name")
  func snapshotListsRecentOrders() throws {
    let (server, port) = try boardServer()
    let orders = try LineClient.greeted(server.port, user: "minji")
    #expect(try orders.request("ORDER mango_juice 3").isOK)
    #expect(try orders.request("ORDER kiwi").isOK)
    let snapshot = try EventStreamClient(port: port).next()
    let recent = (snapshot["stats"] as? [String: Any])?["recent"] as? [[String: Any]] ?? []
    #expect(recent.map { $0["id"] as? Int } == [2, 1])
    let juice = recent.last ?? [:]
    let lines = juice["lines"] as? [[String: Any]] ?? []
    #expect(lines.map { $0["name"] as? String } == ["Mango Juice"] && lines.first?["count"] as? Int == 3)
    let took = juice["took"] as? [[String: Any]] ?? []
    #expect(took.map { $0["name"] as? String } == ["Mango"] && took.first?["count"] as? Int == 9)
    #expect(juice["placed"] is Int && juice["user"] == nil)
  }

  @Test("the shared store's loss and return reach the stream as they reach a watcher (! store)")
  func storeDownAndUp() throws {
    let (server, port) = try boardServer()
    let stream = try EventStreamClient(port: port)
    _ = try stream.next()
    let watcher = try LineClient.greeted(server.port)
    #expect(try watcher.request("WATCH").isOK)
    // What the shared writer announces when PostgreSQL goes away and comes back.
    for link in [StoreLink.down(reason: "no route to host"), .up] {
      for mailbox in server.server.shop.hub.announce(link) { mailbox.notify() }
    }
    let down = try stream.next("store")
    #expect(down["state"] as? String == "down" && down["reason"] as? String == "no route to host")
    #expect(try stream.next("store")["state"] as? String == "up")
    #expect(try watcher.readEvent()["state"] == "down")
  }

  @Test("a stream that stops reading is closed as a slow watcher is, and counted; the board goes on")
  func slowStreamDropped() throws {
    // One client stands for the many that make a busy shop's events: no per-address order rate.
    let (server, port) = try boardServer(initialStock: 100_000) {
      $0.watchTimeout = 1
      $0.orderRate = 0
    }
    let stalled = try stalledStream(port)
    let orders = try LineClient.greeted(server.port)
    let stats = server.server.stats
    // Orders until the stream's socket is full and it has taken nothing for its watch timeout;
    // bounded at 20,000 orders, far more than fills it.
    var sent = 0
    while stats.slowConsumerDisconnects.load(ordering: .relaxed) == 0 && sent < 20_000 {
      try orderBananas(200, on: orders)
      sent += 200
    }
    // Once full, the stream is closed when its second without progress is up.
    try waitUntil { stats.slowConsumerDisconnects.load(ordering: .relaxed) > 0 }
    #expect(stats.slowConsumerDisconnects.load(ordering: .relaxed) == 1)
    #expect(stats.eventsDropped.load(ordering: .relaxed) > 0)
    #expect(stalled.readsToEnd(), "the stalled stream was not closed")
    // Another stream is served as before.
    let fresh = try EventStreamClient(port: port)
    #expect(try fresh.next().type == "snapshot")
  }

  @Test("a stream whose mailbox overflows is closed when it reads again, and what it lost is counted")
  func overflowedStreamDropped() throws {
    // A watch timeout that never comes: only the mailbox's bound can end this stream.
    // One client stands for the many that make a busy shop's events: no per-address order rate.
    let (server, port) = try boardServer(initialStock: 1_000_000) {
      $0.watchTimeout = 3600
      $0.orderRate = 0
    }
    let stalled = try stalledStream(port)
    let orders = try LineClient.greeted(server.port)
    let stats = server.server.stats
    // More changes than the mailbox holds beyond what the sockets take first: the stream is
    // asked for nothing while its socket is full.
    for _ in 0..<(EventStream.mailboxLimit / 1000 + 10) {
      try orderBananas(1000, on: orders)
    }
    #expect(stats.slowConsumerDisconnects.load(ordering: .relaxed) == 0)
    // Reading again makes room; asked for more, the stream finds its mailbox overflowed and ends.
    #expect(stalled.readsToEnd(), "the overflowed stream was not closed")
    try waitUntil { stats.slowConsumerDisconnects.load(ordering: .relaxed) > 0 }
    #expect(stats.slowConsumerDisconnects.load(ordering: .relaxed) == 1)
    // The mailbox's events and those past it, none of them sent.
    #expect(stats.eventsDropped.load(ordering: .relaxed) >= EventStream.mailboxLimit)
    #expect(try EventStreamClient(port: port).next().type == "snapshot")
  }

  @Test(
    "past the cap on streams, the next from an address holding as many as any is refused with 503 and told when to retry"
  )
  func streamCap() throws {
    let (server, port) = try boardServer()
    let open = try (0..<HTTPLimits.streams).map { index in
      let stream = try EventStreamClient(port: port, from: "127.0.0.\(2 + index / HTTPLimits.streamsPerAddress)")
      _ = try stream.next()
      return stream
    }
    // (One from an address holding fewer would take a place: BoardStreamShareTests.)
    let refused = try HTTPExchange.get("/events", port: port, from: "127.0.0.2")
    #expect(refused.status == 503)
    #expect(refused.header("Retry-After") == "5")
    withExtendedLifetime((server, open)) {}
  }
}

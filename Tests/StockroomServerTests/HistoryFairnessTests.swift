import Dispatch
import Foundation
import StockroomTestSupport
import Synchronization
import Testing

@testable import StockroomEngineHarness
@testable import StockroomServer

/// One customer reading history on hundreds of connections cannot keep another user's reads
/// out (issue 41, finding 7): the history pool is shared by account (a guest by address), and
/// a full queue drops the newest read of the account holding most for a newcomer with less.
@Suite("The history pool shared fairly by account", .timeLimit(.minutes(30)))
struct HistoryFairnessTests {
  /// A connection from `source`, logged in as `user`.
  private static func loggedIn(_ port: UInt16, as user: String, from source: String) throws -> LineClient {
    let client = try LineClient(port: port, receiveTimeout: 120, from: source)
    _ = try client.readReply()
    let reply = try client.request("LOGIN \(user) \(LineClient.password(for: user))")
    guard reply.isOK else { throw LineClient.Failure(description: "LOGIN \(user): \(reply.lines)") }
    return client
  }

  @Test(
    "a customer with 20,000 orders reading on 299 connections from 2 hosts: another user's reads and keyed retry are served"
  )
  func historyFloodDoesNotStarveOthers() throws {
    let data = try DataDirectory()
    // The hoarder's 20,000 orders come from one address for speed; the rate per address
    // (OrderRateTests) would only make it spread them over more.
    let server = try data.openServer(initialStock: 1_000_000) {
      $0.maxClients = 2048
      $0.orderRate = 0
    }
    let port = try server.start()
    defer { server.stop() }
    for name in ["hoarder", "victim"] {
      try server.addAccount(name: name, passwordHash: try TestAccounts.hash(for: name), role: .customer)
    }
    let hoarder = try Self.loggedIn(port, as: "hoarder", from: "127.0.0.4")
    // 20,000 orders, pipelined, then their replies.
    for _ in 0..<20 {
      try hoarder.send(String(repeating: "ORDER kiwi\n", count: 1_000))
      for _ in 0..<1_000 { #expect(try hoarder.readReply().isOK) }
    }
    let victim = try Self.loggedIn(port, as: "victim", from: "127.0.0.1")
    #expect(try victim.request("ORDER kiwi 1 key=v1").isOK)
    let flooders = try (0..<299).map { try Self.loggedIn(port, as: "hoarder", from: "127.0.0.\(2 + $0 % 2)") }
    let stop = Atomic<Bool>(false)
    let reads = Atomic<Int>(0)
    let finished = DispatchGroup()
    for flooder in flooders {
      finished.enter()
      Thread {
        defer { finished.leave() }
        while !stop.load(ordering: .relaxed), (try? flooder.request("LIST orders page=50 size=100")) != nil {
          reads.add(1, ordering: .relaxed)
        }
      }.start()
    }
    defer {
      stop.store(true, ordering: .relaxed)
      finished.wait()
    }
    // The pool's queue full of the hoarder's reads before the victim comes.
    try waitUntil(timeout: 300) { server.history.counters.refused > 0 && reads.load(ordering: .relaxed) >= 299 }
    var refused: [String] = []
    for _ in 0..<10 {
      for line in ["LIST", "LIST orders", "ORDER kiwi 1 key=v1"] {
        let reply = try victim.request(line)
        if !reply.isOK { refused.append("\(line): \(reply.lines.last ?? "")") }
      }
    }
    #expect(refused.isEmpty, "\(refused.count) of 30 refused: \(refused.prefix(3))")
    #expect(server.history.counters.refused > 0, "the hoarder's reads never filled the pool")
  }
}

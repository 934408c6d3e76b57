import Foundation
import Testing

/// A handful of hosts cannot hold every place (issue 41, finding 5): watchers that read their few
/// events are never idle, so a full server gives the newest place of the address holding most to
/// a newcomer from an address holding fewer, instead of turning the newcomer away.
@Suite("Places on a full server go to the address holding fewest", .timeLimit(.minutes(30)))
struct PlaceFairnessTests {
  @Test("5 hosts opening 1,100 watchers: a client from another host is served every time")
  func watchersCannotHoldEveryPlace() throws {
    let server = try TestServer()
    var watchers: [LineClient] = []
    var refused = 0
    for index in 0..<1_100 {
      let watcher = try LineClient(port: server.port, receiveTimeout: 60, from: "127.0.0.\(2 + index % 5)")
      let greeting = try watcher.readReply()
      guard greeting.isOK else {
        refused += 1
        continue
      }
      try watcher.send("WATCH\n")
      watchers.append(watcher)
    }
    #expect(watchers.count + refused == 1_100)
    try waitUntil { server.server.connectedClients >= 1_000 }
    var served = 0
    var other: [String] = []
    for _ in 0..<5 {
      let user = try LineClient(port: server.port, receiveTimeout: 60, from: "127.0.0.1")
      let greeting = try user.readReply()
      if greeting.isOK, try user.request("STOCK kiwi").isOK {
        served += 1
      } else {
        other.append(greeting.lines.joined())
      }
      user.closeNow()
    }
    #expect(served == 5, "served \(served) of 5; the others: \(other.prefix(2))")
    #expect(server.server.connectedClients <= server.server.maxClients + 1, "the server went past its places")
  }

  @Test("the connection that gives its place up is told why, between lines")
  func yieldedConnectionIsTold() throws {
    let server = try TestServer { $0.maxClients = 4 }
    let held = try (0..<4).map { _ in try LineClient(port: server.port, receiveTimeout: 30, from: "127.0.0.2") }
    for client in held { _ = try client.readReply() }
    let user = try LineClient(port: server.port, receiveTimeout: 30, from: "127.0.0.1")
    #expect(try user.readReply().isOK)
    #expect(try held[3].readsToEnd().contains { $0.hasPrefix("! closing reason=server_full") })
    #expect(try held[0].request("PING").isOK, "an older place was taken")
  }
}

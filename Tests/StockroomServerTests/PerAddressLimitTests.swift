import Foundation
import Testing

@testable import StockroomServer

/// `--max-clients-per-address`: one host cannot take every place, watchers included. Other
/// loopback addresses (127.0.0.2 and up) stand for other hosts.
@Suite("One address cannot hold every connection", .timeLimit(.minutes(30)))
struct PerAddressLimitTests {
  @Test(
    "past the per-address limit a host gets ERR LIMIT naming it; other hosts are served; a closed place is free again")
  func perAddress() throws {
    let server = try TestServer {
      $0.maxClients = 50
      $0.maxClientsPerAddress = 3
    }
    var held: [LineClient] = []
    for _ in 0..<3 {
      let watcher = try LineClient(port: server.port, receiveTimeout: 10, from: "127.0.0.2")
      #expect(try watcher.readReply().isOK)
      #expect(try watcher.request("WATCH").isOK)
      held.append(watcher)
    }
    let fourth = try LineClient(port: server.port, receiveTimeout: 10, from: "127.0.0.2")
    let refusal = try fourth.readLine() ?? ""
    #expect(refusal.hasPrefix("ERR LIMIT too many connections from your address: 3 at once"), "\(refusal)")
    #expect(try fourth.readLine() == nil, "closed after the refusal")

    let elsewhere = try LineClient(port: server.port, receiveTimeout: 10, from: "127.0.0.3")
    #expect(try elsewhere.readReply().isOK)
    #expect(try elsewhere.request("PING").isOK)

    // A place given back is free again: QUIT one watcher, and the same host gets in.
    #expect(try held[0].request("QUIT").isOK)
    let stats = { try elsewhere.request("INFO clients").rows.first?["clients"] }
    let deadline = Date().addingTimeInterval(30)
    while try stats() != "3" && Date() < deadline { usleep(10_000) }
    #expect(try stats() == "3", "two watchers and elsewhere")
    let again = try LineClient(port: server.port, receiveTimeout: 10, from: "127.0.0.2")
    #expect(try again.readReply().isOK)
  }

  @Test("50 watchers from one host cannot fill a 50-client server: another host still gets in")
  func watchersCannotFillTheServer() throws {
    let limited = try TestServer {
      $0.maxClients = 50
      $0.maxClientsPerAddress = 12
    }
    var watchers: [LineClient] = []
    var connected: [LineClient] = []
    var refused = 0
    var notWatching = 0
    for _ in 0..<50 {
      let client = try LineClient(port: limited.port, receiveTimeout: 10, from: "127.0.0.2")
      let greeting = try client.readLine() ?? ""
      if greeting.hasPrefix("ERR LIMIT too many connections from your address") {
        refused += 1
        continue
      }
      connected.append(client)
      // Three quarters of an address's places may watch (WatcherPlaceTests).
      let reply = try client.request("WATCH")
      if reply.isOK { watchers.append(client) } else if reply.errorCode == .limit { notWatching += 1 }
    }
    #expect(watchers.count == 9 && notWatching == 3 && refused == 38)
    let other = try LineClient(port: limited.port, receiveTimeout: 10, from: "127.0.0.3")
    #expect(try other.readReply().isOK)
  }
}

import Foundation
import StockroomProtocol
import Testing

/// Watchers have a share of the places of their own (issue 41, finding 5): three quarters of the
/// server's places in all and of an address's from one address, so the last quarter is kept for
/// connections that are not watching; when every watcher place is held, the address holding
/// the most gives its newest watcher's up to a newcomer from an address holding fewer.
@Suite("Watcher places: a share of their own, the heaviest address cut", .timeLimit(.minutes(30)))
struct WatcherPlaceTests {
  /// `count` connections from `host`, each sent WATCH and answered.
  private func watchers(_ count: Int, port: UInt16, from host: String) throws -> [(LineClient, Reply)] {
    try (0..<count).map { _ in
      let watcher = try LineClient(port: port, receiveTimeout: 30, from: host)
      _ = try watcher.readReply()
      return (watcher, try watcher.request("WATCH"))
    }
  }

  @Test("when every watcher place is held, a WATCH from another host takes the newest of the heaviest host's")
  func newcomerTakesHeaviestsNewest() throws {
    // 40 places: 30 for watchers, 24 from one address.
    let server = try TestServer {
      $0.maxClients = 40
      $0.maxClientsPerAddress = 32
    }
    let heavy = try watchers(24, port: server.port, from: "127.0.0.2")
    let other = try watchers(6, port: server.port, from: "127.0.0.3")
    #expect((heavy + other).allSatisfy { $0.1.isOK }, "the first 30 watch")
    // Every watcher place is held; a connection that does not watch is still served.
    let user = try LineClient(port: server.port, receiveTimeout: 30, from: "127.0.0.1")
    #expect(try user.readReply().isOK)
    #expect(try user.request("STOCK kiwi").isOK)
    // Watching, it takes the place of the heaviest address's newest watcher, which is told.
    #expect(try user.request("WATCH kiwi").isOK)
    let cut = try heavy[23].0.readsToEnd()
    #expect(cut.contains("! closing reason=watchers_full address_watchers=24"), "\(cut)")
    #expect(try heavy[0].0.request("PING").isOK, "an older watcher was cut")
    // The heaviest address, now holding 23 to the user's 1, cannot take a place back; nor can
    // 127.0.0.3 from the user's address, which holds fewer.
    let again = try LineClient(port: server.port, receiveTimeout: 30, from: "127.0.0.2")
    _ = try again.readReply()
    let refused = try again.request("WATCH")
    #expect(
      refused.errorCode == .limit && refused.message.hasPrefix("too many watchers: 30 at once"), "\(refused.lines)")
    // Its connection stays, not watching; UNWATCH elsewhere gives a place back.
    #expect(try again.request("PING").isOK)
    #expect(try heavy[1].0.request("UNWATCH").isOK)
    #expect(try again.request("WATCH").isOK, "a place given back by UNWATCH is taken")
    #expect(try user.request("PING").isOK, "the newcomer's watch stayed")
  }

  @Test("one address holds at most three quarters of its places as watchers; its other connections are served")
  func perAddressShare() throws {
    let server = try TestServer { $0.maxClientsPerAddress = 8 }
    let tried = try watchers(8, port: server.port, from: "127.0.0.2")
    #expect(tried.prefix(6).allSatisfy { $0.1.isOK })
    for (_, reply) in tried.suffix(2) {
      #expect(reply.errorCode == .limit, "\(reply.lines)")
      #expect(reply.message == "too many watchers from your address: 6 at once; UNWATCH or close one and try again")
    }
    #expect(try tried[7].0.request("STOCK kiwi").isOK, "a refused WATCH leaves the connection served")
    // Closing a watcher gives its place back.
    tried[0].0.closeNow()
    try waitUntil { try tried[7].0.request("WATCH").isOK }
  }
}

import Foundation
import StockroomProtocol
import Testing

@testable import StockroomEngineHarness

/// The harness itself: a whole session through the real handlers with no socket, password work
/// on the real pool, events from one channel's change to another's watch, and clients counted
/// as they come and go.
@Suite("The engine harness: the shop without a socket", .timeLimit(.minutes(30)))
struct EngineHarnessTests {
  @Test("a session runs through the engine alone: no descriptor, a login on the pool, events across channels")
  func sessionWithoutSocket() throws {
    let harness = try EngineHarness()
    let watcher = try harness.client()
    let buyer = try harness.client(as: "minji")
    // No socket behind either: an EngineClient is an embedded channel, with no descriptor to
    // ask for, and this target links no socket layer (ImportRuleTests).
    #expect(!watcher.channel.isClosed && !buyer.channel.isClosed)
    #expect(try watcher.request("WATCH kiwi").isOK)
    let ordered = try buyer.request("ORDER kiwi 2")
    #expect(ordered.isOK && ordered.rows.first { $0["kind"] == "taken" }?["stock"] == "8", "\(ordered.lines)")
    let event = try watcher.readEvent()
    #expect(event.id == "stock" && event["item"] == "kiwi" && event["level"] == "8", "\(event)")
    // A wrong password runs on the credentials pool and is counted, as over TCP.
    #expect(try buyer.request("LOGIN minji \"not the password\"").errorCode == .auth)
    #expect(harness.stats.failedLogins.load(ordering: .relaxed) == 1)
  }

  @Test("INFO and WHO count the channels open; one dropped is one fewer")
  func clientsAreCounted() throws {
    let harness = try EngineHarness()
    let staff = try harness.client(as: "bob", role: .staff)
    var guest: EngineClient? = try harness.client()
    #expect(try staff.request("INFO clients").rows.first?["clients"] == "2")
    _ = guest
    guest = nil
    #expect(try staff.request("INFO clients").rows.first?["clients"] == "1")
  }

  @Test("QUIT closes the channel: the client reads to the end, and a later write fails")
  func quitCloses() throws {
    let harness = try EngineHarness()
    let client = try harness.client()
    #expect(try client.request("QUIT").isOK)
    #expect(try client.readsToEnd().isEmpty)
    #expect(throws: EngineClient.Failure.self) { try client.send("PING\n") }
  }
}

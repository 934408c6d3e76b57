import StockroomEngine
import StockroomProtocol
import StockroomSystem
import Testing

@testable import StockroomEngineHarness

/// REGISTER tells a person their name is taken, but hearing it costs what a LOGIN guess costs
/// (issue 20, item 7): a password check on the fair pool, and a wrong password counts against
/// the address's penalty, so listing the accounts is as slow as guessing passwords. Other
/// loopback addresses (127.0.0.2 and up) stand for other hosts; the engine alone, no socket.
@Suite("REGISTER cannot list the accounts for free", .timeLimit(.minutes(30)))
struct RegisterEnumerationTests {
  @Test("each taken name costs the prober a password check and a failure; the owner's own costs no failure")
  func takenNamesCost() throws {
    let server = try EngineHarness()
    let names = ["alice", "bob", "carol", "dave", "erin", "frank", "gina", "hana"]
    for name in names { try server.account(name, role: .customer) }
    let pool = server.handler.credentials
    try waitUntil { pool.counters.queued == 0 && pool.counters.running == 0 }
    let checksBefore = pool.counters.completed

    let prober = server.connect(from: "127.0.0.2")
    _ = try prober.readReply()
    try prober.send(names.map { "REGISTER \($0) \"long-enough-pw\"\n" }.joined())
    for name in names {
      let reply = try prober.readReply()
      #expect(reply.errorCode == .exists, "\(name): \(reply.lines)")
    }
    try waitUntil { pool.counters.queued == 0 && pool.counters.running == 0 }
    #expect(pool.counters.completed - checksBefore == names.count, "one password check per taken name")
    let probing = PeerSource(bytes: [127, 0, 0, 2])
    #expect(server.handler.throttle.penalty(of: probing, now: server.clock.now()) == names.count)

    // Someone who registers their own name again (a script that registers, then logs in).
    let owner = server.connect(from: "127.0.0.3")
    _ = try owner.readReply()
    let again = try owner.request("REGISTER alice \(Quoting.quote(EngineClient.password(for: "alice")))")
    #expect(again.errorCode == .exists)
    let own = PeerSource(bytes: [127, 0, 0, 3])
    #expect(server.handler.throttle.penalty(of: own, now: server.clock.now()) == 0)
    #expect(try owner.request("REGISTER ivy \"long-enough-pw\"").isOK)
  }
}

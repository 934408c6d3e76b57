import StockroomDomain
import StockroomEngine
import Testing

@testable import StockroomEngineHarness

/// Whether the shop takes changes is one value with one refusal (issue 21).
@Suite("Writability: one value, one refusal", .timeLimit(.minutes(30)))
struct WritabilityTests {
  @Test("each state refuses with its code and reason; only the database's absence says UNAVAILABLE")
  func refusals() {
    #expect(Writability.writable.refusal == nil)
    #expect(Writability.diskFailing("disk full").refusal?.kind == .unavailable)
    #expect(Writability.damaged("bad page").refusal?.message.hasSuffix(": bad page") == true)
    #expect(Writability.unreachable("no route").refusal?.kind == .unreachable)
    #expect(Writability.unreadable("cannot read", unreachable: true).refusal?.kind == .unreachable)
    #expect(Writability.unreadable("cannot read", unreachable: false).refusal?.kind == .unavailable)
    #expect(Writability.unreadable("cannot read", unreachable: false).needsReadBack)
    #expect(!Writability.diskFailing("disk full").needsReadBack)
  }

  @Test("a store whose link is lost refuses, says why, and takes changes again once it is back")
  func linkLostAndBack() throws {
    let server = try EngineHarness()
    let shop = server.shop
    shop.locked.sharedLinkLost("gone")
    #expect(shop.readOnlyReason == "gone")
    #expect(shop.linkDown)
    #expect(throws: ShopError.self) { try shop.checkWritable() }
    shop.locked.sharedLinkRestored()
    #expect(shop.readOnlyReason == nil)
    #expect(!shop.linkDown)
    try shop.checkWritable()
  }
}

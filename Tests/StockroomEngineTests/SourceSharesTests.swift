import StockroomEngine
import Testing

/// The rule the HTTP server's connections and board streams, and watchers' places, are shared by
/// (issue 41): when every place is held, the source holding the most gives one up, never the
/// newcomer.
@Suite("SourceShares: the biggest source gives way", .timeLimit(.minutes(30)))
struct SourceSharesTests {
  private func source(_ last: UInt8) -> PeerSource { PeerSource(bytes: [127, 0, 0, last]) }

  @Test("past a source's share it is refused; with every place held, a smaller source takes the biggest's oldest")
  func biggestGivesWay() {
    var shares = SourceShares<Int, PeerSource>(total: 6, perSource: 4)
    for key in 0..<4 { #expect(shares.admit(key, from: source(2)) == .admitted) }
    #expect(shares.admit(4, from: source(2)) == .refused(ownOldest: 0), "past its share")
    #expect(shares.admit(5, from: source(3)) == .admitted)
    #expect(shares.admit(6, from: source(3)) == .admitted)
    // Full: 4 from .2, 2 from .3. A newcomer from .4 takes .2's oldest place.
    #expect(shares.admit(7, from: source(4)) == .admittedCutting(0, source: source(2)))
    #expect(shares.held(by: source(2)) == 3)
    // .3 holds 2 and .2 holds 3: a third for .3 would make it as big, so it is refused, and
    // the two never take places from each other in turn.
    #expect(shares.admit(8, from: source(3)) == .refused(ownOldest: 5))
    #expect(shares.admit(9, from: source(2)) == .refused(ownOldest: 1), "the biggest is refused its own newcomer")
    shares.release(5)
    #expect(shares.admit(10, from: source(2)) == .admitted, "a free place is anyone's within its share")
    #expect(shares.count == 6)
  }

  @Test("the rank chooses which of the biggest source's holders is cut first, then the oldest")
  func rankFirst() {
    var shares = SourceShares<Int, PeerSource>(total: 3, perSource: 3)
    for key in 0..<3 { #expect(shares.admit(key, from: source(2)) == .admitted) }
    #expect(shares.admit(3, from: source(3), rank: { $0 == 2 ? 0 : 1 }) == .admittedCutting(2, source: source(2)))
  }

  @Test("with the newest as victim, the biggest source's newest holder is cut")
  func newestFirst() {
    var shares = SourceShares<Int, PeerSource>(total: 3, perSource: 3, victim: .newest)
    for key in 0..<3 { #expect(shares.admit(key, from: source(2)) == .admitted) }
    #expect(shares.admit(3, from: source(3)) == .admittedCutting(2, source: source(2)))
    #expect(shares.holds(3) && !shares.holds(2))
  }

  /// What a table that keeps each source's newest (the phone page's tokens and order keys) gives
  /// up to make room: the refused source's own oldest, by when it was admitted, not by its key.
  @Test("a refusal names the source's own oldest holder, or none when it holds none")
  func refusalNamesOwnOldest() {
    var shares = SourceShares<Int, PeerSource>(total: 4, perSource: 2)
    #expect(shares.admit(9, from: source(2)) == .admitted)
    #expect(shares.admit(1, from: source(2)) == .admitted)
    #expect(shares.admit(5, from: source(2)) == .refused(ownOldest: 9), "at its share: its oldest, not its least key")
    shares.release(9)
    #expect(shares.admit(7, from: source(2)) == .admitted)
    #expect(shares.admit(8, from: source(2)) == .refused(ownOldest: 1), "the next oldest once the oldest went")
    #expect(shares.admit(3, from: source(3)) == .admitted)
    #expect(shares.admit(4, from: source(4)) == .admitted)
    // Full: .2 holds 2, .3 and .4 one each. .3 would hold as many as .2 with a second.
    #expect(shares.admit(6, from: source(3)) == .refused(ownOldest: 3), "among the biggest: its own oldest")
    shares.release(1)
    shares.release(7)
    #expect(shares.admit(2, from: source(2)) == .admitted)
    #expect(shares.admit(0, from: source(5)) == .admitted)
    // Full, every source holding one: a source holding none is refused with nothing to give.
    #expect(shares.admit(10, from: source(6)) == .refused(ownOldest: nil))
  }
}

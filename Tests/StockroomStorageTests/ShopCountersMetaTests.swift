import StockroomDomain
import Testing

@testable import StockroomStorage

/// The counters' two mappings to stored form: keyed rows (`meta`) and bare values in
/// `metaRows`' order (a commit record). They are written in two places, so a counter added to one
/// and not the other, or put in another order, is caught here.
@Suite(.timeLimit(.minutes(30)))
struct ShopCountersMetaTests {
  /// Counters whose every value differs, so a swap of two shows.
  private static let counters: ShopCounters = {
    var counters = ShopCounters()
    counters.nextOrderID = 11
    counters.nextProductID = 22
    counters.nextDiaryID = 33
    counters.namesGeneration = 44
    counters.ordersMade = 55
    return counters
  }()

  @Test func valuesReadInTheRowsOrderGiveTheSameCounters() {
    var values = Self.counters.metaRows.map(\.value).makeIterator()
    let read = ShopCounters(metaValues: { values.next() ?? -1 })
    #expect(read == Self.counters)
    #expect(values.next() == nil, "the rows hold a counter the values' reader does not take")
  }

  @Test func everyRowSetByItsKeyGivesTheSameCounters() {
    var read = ShopCounters()
    for row in Self.counters.metaRows { read.setMeta(row.key, to: row.value) }
    #expect(read == Self.counters)
    #expect(Set(Self.counters.metaRows.map(\.key)).count == Self.counters.metaRows.count)
  }

  @Test func onlyTheRowsThatMovedAreWritten() {
    var moved = Self.counters
    moved.nextOrderID += 1
    moved.ordersMade += 1
    #expect(moved.metaRows(changedSince: Self.counters).map(\.key) == ["next_order_id", "orders_made"])
    #expect(moved.metaRows(changedSince: nil).count == 5)
  }
}

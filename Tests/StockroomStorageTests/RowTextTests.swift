import StockroomDomain
import Testing

@testable import StockroomStorage

@Suite("Order rows as text", .timeLimit(.minutes(30)))
struct RowTextTests {
  @Test("an order's lines come back from their text exactly, priced or not, in any script")
  func linesRoundTrip() throws {
    let lines = [
      OrderLine(item: "banana_juice", name: "Banana Juice", kind: .juice, quantity: 2),
      OrderLine(
        item: "kimchi", name: "배추김치 (large)", kind: .dish, quantity: 1,
        unitPrice: Money(minorUnits: 4500, currency: .krw)),
    ]
    let text = RowText.lines(lines)
    #expect(try RowText.lines(from: text) == lines)
    #expect(try RowText.lines(from: RowText.lines([])) == [])
  }

  @Test("item counts come back from their text exactly")
  func countsRoundTrip() throws {
    let counts = [ItemCount("banana", 3), ItemCount("strawberry", 0), ItemCount("딸기", -1)]
    #expect(try RowText.counts(from: RowText.counts(counts)) == counts)
    #expect(RowText.counts([ItemCount("a", 1), ItemCount("b", 22)]) == "a\u{1F}1\u{1E}b\u{1F}22")
    #expect(try RowText.counts(from: "") == [])
  }
}

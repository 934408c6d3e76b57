import StockroomText
import Testing

/// `DecimalText` spells every integer as `String(value)` does, the ends of `Int` included.
@Suite(.timeLimit(.minutes(30)))
struct DecimalTextTests {
  @Test(arguments: [0, 1, 7, 9, 10, -1, -9, -42, 1_000_000_007, Int.max, Int.min])
  func spellsAsString(_ value: Int) {
    var bytes: [UInt8] = Array("x=".utf8)
    DecimalText.append(value, to: &bytes)
    #expect(String(decoding: bytes, as: UTF8.self) == "x=\(value)")
  }

  @Test("every number up to 20,000, across the byte-at-a-time path's edges, as String spells it")
  func spellsSmallNumbersAsString() {
    for value in -10...20_000 {
      var bytes: [UInt8] = []
      DecimalText.append(value, to: &bytes)
      if bytes != Array(String(value).utf8) {
        Issue.record("\(value) spelled \(String(decoding: bytes, as: UTF8.self))")
        return
      }
    }
  }
}

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
}

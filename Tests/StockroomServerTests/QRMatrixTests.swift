import StockroomTransport
import Testing

/// The QR code libqrencode makes of a join link, checked without a decoder: a version's size,
/// and the three finder patterns a camera looks for first.
@Suite(.timeLimit(.minutes(30)))
struct QRMatrixTests {
  @Test("a join link's code has a version's size and its three finder patterns")
  func finderPatterns() throws {
    let code = try #require(QRMatrix("http://192.168.1.20:8080/join"))
    #expect(code.size >= 21 && (code.size - 21) % 4 == 0)
    #expect(code.modules.count == code.size * code.size)
    for (top, left) in [(0, 0), (0, code.size - 7), (code.size - 7, 0)] {
      for row in 0..<7 {
        for column in 0..<7 {
          let ring = row == 0 || row == 6 || column == 0 || column == 6
          let centre = (2...4).contains(row) && (2...4).contains(column)
          #expect(
            code.isDark(row: top + row, column: left + column) == (ring || centre), "(\(top + row), \(left + column))")
        }
      }
    }
    #expect(code.svg.contains("viewBox=\"0 0 \(code.size + 8) \(code.size + 8)\""))
    #expect(code.halfBlocks.split(separator: "\n").count == (code.size + 5) / 2)
  }
}

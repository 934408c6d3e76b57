import StockroomText
import Testing

@Suite("Echoing a client's word in a message", .timeLimit(.minutes(30)))
struct EchoTests {
  @Test("a short word is quoted whole")
  func short() {
    #expect(Echo.quoted("banan") == "'banan'")
    #expect(Echo.quoted("") == "''")
    #expect(Echo.quoted(String(repeating: "가", count: 64)) == "'" + String(repeating: "가", count: 64) + "'")
  }

  @Test("a long word is cut to 64 characters, then …")
  func long() {
    let echoed = Echo.quoted(String(repeating: "x", count: 60_000))
    #expect(echoed == "'" + String(repeating: "x", count: 64) + "…'")
    #expect(Echo.bounded(String(repeating: "k", count: 65)) == String(repeating: "k", count: 64) + "…")
  }

  @Test("the cut also holds to 256 bytes, inside one character when it must")
  func bytes() {
    let wide = Echo.quoted(String(repeating: "🍌", count: 100))
    #expect(wide == "'" + String(repeating: "🍌", count: 64) + "…'")
    let heavy = Echo.quoted("a" + String(repeating: "\u{301}", count: 32_000))
    #expect(heavy.utf8.count <= 256 + "'…'".utf8.count)
    #expect(heavy.utf8.starts(with: "'a\u{301}".utf8) && heavy.hasSuffix("…'"))
  }

  @Test("hidden and line-breaking characters are shown as escapes")
  func hidden() {
    #expect(Echo.quoted("ali\u{202E}ce") == #"'ali\u{202e}ce'"#)
    #expect(Echo.quoted("a\u{2028}b\u{85}c\nd\u{200B}") == #"'a\u{2028}b\u{85}c\u{a}d\u{200b}'"#)
    #expect(Echo.quoted(String(repeating: "\u{200B}", count: 100)).utf8.count <= 256 + 5)
  }
}

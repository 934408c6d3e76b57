import StockroomText
import Testing

@Suite("A string as JSON writes it", .timeLimit(.minutes(30)))
struct JSONStringTests {
  @Test("quotes, backslashes and typed control characters get their short escapes")
  func shortEscapes() {
    #expect(JSONString.quoted("a\"b\\c") == #""a\"b\\c""#)
    #expect(JSONString.quoted("line\nnext\r\ttab") == #""line\nnext\r\ttab""#)
  }

  @Test("other control characters are \\u00XX, DEL included; the rest is itself")
  func otherControls() {
    #expect(JSONString.quoted("\u{1}\u{1F}\u{7F}") == #""\u0001\u001f\u007f""#)
    #expect(JSONString.quoted("김치 é") == "\"김치 é\"")
    #expect(JSONString.quoted("") == "\"\"")
  }

  @Test("the wire's quoting shares the short escapes and nothing more")
  func commonEscapes() {
    #expect(CommonEscape.of("\"") == "\\\"")
    #expect(CommonEscape.of("\t") == "\\t")
    #expect(CommonEscape.of("\u{1}") == nil)
    #expect(CommonEscape.of("a") == nil)
  }
}

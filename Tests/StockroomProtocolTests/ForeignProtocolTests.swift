import StockroomProtocol
import Testing

@Suite("Recognising another protocol's opening", .timeLimit(.minutes(30)))
struct ForeignProtocolTests {
  @Test(
    "request lines, Host headers, RESP arrays and TLS records are recognised",
    arguments: [
      ("GET / HTTP/1.1", true, ForeignProtocol.http), ("POST /shop?x=1 HTTP/1.0", false, .http),
      ("OPTIONS * HTTP/2", false, .http), ("DELETE /a b HTTP/1.1", false, .http), ("PATCH  x HTTP/", false, .http),
      ("host: 127.0.0.1", false, .http), ("HOST:x", false, .http),
      ("*3", true, .resp), ("*12", true, .resp),
    ])
  func recognised(line: String, isFirst: Bool, expected: ForeignProtocol) {
    #expect(ForeignProtocol.detect(line: ArraySlice(line.utf8), isFirst: isFirst) == expected)
  }

  @Test(
    "our own requests, and lines that only resemble others, are not",
    arguments: [
      ("PING", true), ("GET", true), ("POST /", true), ("PING GET / HTTP/1.1", true), ("*3", false), ("*", true),
      ("*3a", true), ("Hos", true), ("HELLO host:", true), ("ORDER banana_juice 2", true), ("", true),
      ("GETTING / HTTP/1.1", true), ("ORDER banana_juice", true), ("OPTIONS banana HTTP", true),
      ("GET HTTP/1.1", true), ("DELETE /x HTTPS/1.1", true),
    ])
  func notRecognised(line: String, isFirst: Bool) {
    #expect(ForeignProtocol.detect(line: ArraySlice(line.utf8), isFirst: isFirst) == nil)
  }

  @Test("a first byte of 0x16 is a TLS record; text is not")
  func tls() {
    for (bytes, expected) in [
      ([UInt8]([0x16, 0x03, 0x01]), ForeignProtocol.tls), (Array("PING\n".utf8), nil), ([], nil),
    ] {
      bytes.withUnsafeBytes { #expect(ForeignProtocol.detect(firstBytes: $0) == expected) }
    }
  }
}

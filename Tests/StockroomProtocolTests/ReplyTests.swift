import StockroomProtocol
import Testing

@Suite("Replies", .timeLimit(.minutes(30)))
struct ReplyTests {
  @Test("an encoded row parses back to the same id and fields")
  func rowRoundTrip() throws {
    var encoder = ReplyEncoder()
    encoder.beginRow("galbi_jjim")
    encoder.field("name", "소갈비찜")
    encoder.field("description", "Braised \"short\" ribs\nslowly")
    encoder.field("stock", -3)
    encoder.field("price", 0)
    encoder.field("empty", "")
    encoder.endLine()
    let line = String(decoding: encoder.bytes, as: UTF8.self)
    #expect(line.hasPrefix("* galbi_jjim name=소갈비찜 description=\"Braised \\\"short\\\" ribs\\nslowly\""))
    #expect(line.hasSuffix("\n"))
    #expect(line.filter { $0 == "\n" }.count == 1, "a data line never spans two lines")
    let row = try Row(parsing: String(line.dropFirst(2).dropLast()))
    #expect(row.id == "galbi_jjim")
    #expect(row["name"] == "소갈비찜")
    #expect(row["description"] == "Braised \"short\" ribs\nslowly")
    #expect(row["stock"] == "-3")
    #expect(row["price"] == "0")
    #expect(row["empty"] == "")
  }

  @Test("integers are written exactly at the extremes")
  func integers() {
    for value in [0, 7, -7, 10, 1_000_000, Int.max, Int.min + 1] {
      var encoder = ReplyEncoder()
      encoder.beginRow("x")
      encoder.field("n", value)
      #expect(String(decoding: encoder.bytes, as: UTF8.self) == "* x n=\(value)")
    }
  }

  @Test("status text can never break the one-line status rule")
  func statusIsOneLine() {
    var encoder = ReplyEncoder()
    encoder.error(ProtocolError(.invalid, "two\nlines\r"))
    encoder.ok("also\ntwo")
    #expect(String(decoding: encoder.bytes, as: UTF8.self) == "ERR INVALID two lines \nOK also two\n")
  }

  @Test("the reader groups data lines with their status and keeps events apart")
  func readerGroupsReplies() {
    var reader = ReplyReader()
    #expect(reader.feed("* banana kind=fruit stock=10") == nil)
    #expect(reader.isInsideReply)
    guard case .event(let event, _)? = reader.feed("! stock item=banana level=9 change=-1") else {
      Issue.record("event not recognised")
      return
    }
    #expect(event.id == "stock")
    #expect(event["level"] == "9")
    guard case .reply(let reply)? = reader.feed("OK 1 item\r") else {
      Issue.record("reply not complete")
      return
    }
    #expect(reply.isOK)
    #expect(reply.rows.count == 1)
    #expect(reply.rows[0]["stock"] == "10")
    #expect(reply.message == "1 item")
    guard case .reply(let error)? = reader.feed("ERR SHORTAGE not enough") else {
      Issue.record("error reply not complete")
      return
    }
    #expect(error.errorCode == .shortage)
    #expect(error.message == "not enough")
    #expect(!reader.isInsideReply)
  }

  @Test("OK lines with fields can be read as fields")
  func statusFields() {
    var reader = ReplyReader()
    guard case .reply(let reply)? = reader.feed("OK order=17 total_krw=28800 total_text=₩28,800") else {
      Issue.record("no reply")
      return
    }
    #expect(reply.statusFields["order"] == "17")
    #expect(reply.statusFields["total_text"] == "₩28,800")
  }
}

@Suite("Quoting characters that split or reorder lines", .timeLimit(.minutes(30)))
struct LineSafeQuotingTests {
  @Test("the byte-level check on status text and the scalar-level one on words agree on every character up to U+2FFF")
  func escapeSetsAgree() {
    for value in UInt32(0)...0x2FFF {
      guard let scalar = Unicode.Scalar(value), scalar != "\n" else { continue }
      var out = ReplyEncoder(capacity: 16)
      out.ok("a" + String(Character(scalar)) + "b")
      let kept = String(decoding: out.bytes, as: UTF8.self).unicodeScalars.contains(scalar)
      #expect(kept != Quoting.mustEscape(scalar), "U+\(String(value, radix: 16))")
    }
  }

  @Test(
    "C1 controls, U+2028, U+2029 and bidi controls are escaped and read back",
    arguments: [
      "a\u{2028}b", "a\u{2029}b", "a\u{85}b", "a\u{9B}b", "ali\u{202E}ce", "\u{2066}x\u{2069}", "a\u{200F}b",
      "a\u{061C}b",
    ])
  func escaped(text: String) throws {
    #expect(Quoting.needsQuotes(text, isValue: true))
    var encoder = ReplyEncoder()
    encoder.beginRow("x")
    encoder.field("v", text)
    encoder.endLine()
    let line = String(decoding: encoder.bytes, as: UTF8.self)
    #expect(line.unicodeScalars.allSatisfy { !Quoting.mustEscape($0) || $0 == "\n" }, "\(line)")
    #expect(line.contains(#"\u{"#))
    let row = try Row(parsing: String(line.dropFirst(2).dropLast()))
    #expect(row["v"] == text)
  }

  @Test("a word of any length, looked at eight bytes at a time or at once, needs quotes for the same characters")
  func wordsOfEveryLengthAgree() {
    let scalars =
      (0...0x7F).compactMap(Unicode.Scalar.init) + ["\u{85}", "\u{9B}", "\u{2028}", "\u{202E}", "₩", "ÿ", "…"]
    for scalar in scalars {
      for isValue in [true, false] {
        // Protocol.md's rule, spelled out rather than asked of the code under test.
        let expected =
          scalar == " " || scalar == "\"" || scalar == "\\" || (!isValue && scalar == "=") || Quoting.mustEscape(scalar)
        for length in 0...17 {
          for position in 0...length {
            let word =
              String(repeating: "a", count: position) + String(scalar)
              + String(repeating: "a", count: length - position)
            #expect(Quoting.needsQuotes(word, isValue: isValue) == expected, "\(word.debugDescription) \(isValue)")
          }
        }
      }
    }
  }

  @Test("other text near those code points stays bare and raw")
  func notEscaped() {
    for text in ["₩28,800", "…", "‐", "a\u{2030}b", "¢", "ÿ", "ب", "\u{2065}"] {
      #expect(!Quoting.needsQuotes(text, isValue: true), "\(text)")
    }
  }

  @Test("status text turns them into spaces")
  func statusText() {
    var encoder = ReplyEncoder()
    encoder.ok("a\u{2028}b\u{85}c\u{202E}d")
    encoder.error(ProtocolError(.invalid, "x\u{2029}y"))
    #expect(String(decoding: encoder.bytes, as: UTF8.self) == "OK a b c d\nERR INVALID x y\n")
  }
}

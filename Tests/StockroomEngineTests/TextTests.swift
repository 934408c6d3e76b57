import Foundation
import StockroomProtocol
import Testing

@testable import StockroomEngineHarness

@Suite(
  "Text from clients: byte limits, hidden characters, escapes and echoes, through the engine", .timeLimit(.minutes(30)))
struct TextTests {
  /// One character (grapheme cluster) of 64,001 bytes: a letter with 32,000 combining accents.
  static let heavyCharacter = "a" + String(repeating: "\u{301}", count: 32_000)

  @Test(
    "a single character of 64 KB is refused with INVALID in every text field",
    arguments: [
      "REGISTER {} long-enough-pw", "PRODUCT NEW name={} price=1", "PRODUCT NEW name=x price=1 description={}",
      "DIARY NEW {} body",
      "DIARY NEW title {}", "ORDER banana key={}",
    ])
  func heavyCharacterRefused(template: String) throws {
    let server = try EngineHarness()
    let client = try server.client(as: "tester", role: .staff)
    let line = template.replacingOccurrences(of: "{}", with: Self.heavyCharacter)
    let reply = try client.request(line)
    #expect(reply.errorCode == .invalid, "\(template) → \(reply.lines.map { $0.prefix(80) })")
    #expect(reply.lines.allSatisfy { $0.utf8.count < 300 }, "the error does not echo the text")
    #expect(try client.request("INFO").rows[0]["user"] == "tester")
    #expect(try client.request("LIST products").rows.isEmpty)
    #expect(try client.request("DIARY LIST").rows.isEmpty)
    #expect(try client.request("STOCK banana").rows[0]["stock"] == "10")
  }

  static let hiddenNames: [String] = [
    "\u{200B}", "alice\u{200B}", "\u{FEFF}", "\u{2066}", "\u{0301}", "ali\u{202E}ce", "\u{2066}alice\u{2069}",
    "a\u{00AD}lice", "\u{3164}", "\u{E000}x",
  ]

  @Test(
    "REGISTER and USER ADD refuse invisible, combining-only, bidi-override and fullwidth-lookalike names",
    arguments: hiddenNames + ["ａｌｉｃｅ"])
  func accountsRefuseHiddenNames(name: String) throws {
    let server = try EngineHarness()
    let client = try server.client()
    let reply = try client.request("REGISTER \(Quoting.quote(name)) long-enough-pw")
    #expect(reply.errorCode == .invalid, "\(name.unicodeScalars.map { $0.value }) → \(reply.lines)")
    #expect(try client.request("INFO").rows[0]["user"] == "guest")
    let admin = try server.client(as: "admin", role: .admin)
    #expect(try admin.request("USER ADD \(Quoting.quote(name)) long-enough-pw").errorCode == .invalid)
    #expect(try admin.request("USER LIST").rows.map(\.id) == ["admin"])
  }

  @Test("a fullwidth name is refused with the ASCII name it imitates")
  func fullwidthSuggestsASCII() throws {
    let server = try EngineHarness()
    let client = try server.client()
    #expect(try client.request("REGISTER ａｌｉｃｅ long-enough-pw").message.contains("'alice'"))
  }

  @Test("a user name is NFC-normalized, so two spellings of one name are one user")
  func userNamesAreNFC() throws {
    let server = try EngineHarness()
    let client = try server.client()
    #expect(try client.request("REGISTER jose\u{301} long-enough-pw").isOK)
    #expect(try client.request("DIARY NEW t b").isOK)
    #expect(
      try client.request("INFO").rows[0]["user"]?.unicodeScalars.map(\.value)
        == Array("josé".unicodeScalars.map(\.value)))
    let other = try server.client()
    #expect(try other.request("LOGIN josé long-enough-pw").isOK)
    #expect(try other.request("DIARY LIST").rows.count == 1)
    #expect(try other.request("REGISTER josé long-enough-pw").errorCode == .exists)
  }

  @Test("PRODUCT NEW and DIARY NEW refuse hidden and reordering characters in names and titles", arguments: hiddenNames)
  func namesAndTitlesRefuseHiddenText(text: String) throws {
    let server = try EngineHarness()
    let client = try server.client(as: "tester", role: .staff)
    let quoted = Quoting.quote(text, isValue: true)
    #expect(try client.request("PRODUCT NEW name=\(quoted) price=1").errorCode == .invalid)
    // A description may be blank, so a lone filler is only blank; everything else is refused there too.
    if text != "\u{3164}" {
      #expect(try client.request("PRODUCT NEW name=x price=1 description=\(quoted)").errorCode == .invalid)
    }
    #expect(try client.request("DIARY NEW \(quoted) body").errorCode == .invalid)
    #expect(try client.request("LIST products").rows.isEmpty)
    #expect(try client.request("DIARY LIST").rows.isEmpty)
  }

  @Test("line and paragraph separators and NEL in stored text are escaped on the wire and read back")
  func lineSeparatorsEscaped() throws {
    let server = try EngineHarness()
    let client = try server.client(as: "tester", role: .staff)
    let description = "line one\u{2028}line two\u{2029}line three\u{85}end"
    let created = try client.request(
      "PRODUCT NEW name=Lamp price=1 description=\(Quoting.quote(description, isValue: true))")
    #expect(created.isOK, "\(created.lines)")
    for request in ["SHOW p1", "LIST products"] {
      let reply = try client.request(request)
      let row = try #require(reply.rows.first)
      #expect(row["description"] == description, "the reply reader decodes the escapes")
      let line = try #require(reply.lines.first)
      #expect(line.contains(#"\u{2028}"#) && line.contains(#"\u{2029}"#) && line.contains(#"\u{85}"#), "\(line)")
      #expect(!line.unicodeScalars.contains { [0x85, 0x2028, 0x2029].contains($0.value) }, "never raw")
    }
    #expect(try client.request("DIARY NEW title \(Quoting.quote("a\u{2028}b", isValue: true))").isOK)
    let shown = try client.request("DIARY SHOW 1")
    #expect(shown.rows[0]["body"] == "a\u{2028}b")
    #expect(shown.lines[0].contains(#"body="a\u{2028}b""#))
    #expect(try client.request("PING a\u{2028}b").lines == ["OK a b"], "status text turns them into spaces")
  }

  static let longWord = String(repeating: "x", count: 60_000)

  @Test(
    "an error that quotes a client's word quotes a short prefix of it",
    arguments: [
      "{}", "HELP {}", "SHOW {}", "LIST {}", "LIST dishes {}", "ORDER {}", "ORDER banana 1{}", "ADD 1{} 1",
      "ADD banana 1{}", "PRODUCT NEW name=x price={}", "PRODUCT NEW name=x price=1 currency={}",
      "PRODUCT NEW name=x price=1 discount={}%", "PRODUCT EDIT {} name=y", "PRODUCT DELETE {}", "DIARY {}",
      "DIARY SHOW 1{}", "LIST fruits {}=1", "WATCH {}", "STOCK {}", "STOCKTAKE {}",
    ])
  func longWordsAreCut(template: String) throws {
    let server = try EngineHarness()
    let client = try server.client(as: "tester", role: .staff)
    let reply = try client.request(template.replacingOccurrences(of: "{}", with: Self.longWord))
    #expect(reply.errorCode != nil)
    let line = try #require(reply.lines.last)
    #expect(line.utf8.count < 300, "\(template) → \(line.prefix(120))…")
    #expect(line.contains("…"), "\(template) → \(line.prefix(120))")
  }

  @Test("an unknown 60 KB word gets a short error ending the quote in …'")
  func unknownCommandEchoIsShort() throws {
    let server = try EngineHarness()
    let client = try server.client(as: "tester", role: .staff)
    let reply = try client.request(Self.longWord)
    let line = try #require(reply.lines.last)
    #expect(reply.errorCode == .unknown)
    #expect(line.utf8.count < 300)
    #expect(line.contains("'" + String(repeating: "x", count: 64) + "…'"))
  }

  @Test("an echoed word shows hidden characters as escapes instead of sending them raw")
  func echoShowsHiddenCharacters() throws {
    let server = try EngineHarness()
    let client = try server.client(as: "tester", role: .staff)
    let line = try #require(try client.request("SHOW ali\u{202E}ce").lines.last)
    #expect(line.contains(#"'ali\u{202e}ce'"#), "\(line)")
    #expect(!line.unicodeScalars.contains("\u{202E}"))
  }

  /// Protocol.md §5: the largest reply is a page of 100 products at their byte maximum.
  static let largestReplyBytes = 1_400_000

  @Test("a page of 100 products at every byte maximum stays under the documented largest reply")
  func worstCasePageIsBounded() throws {
    let server = try EngineHarness()
    // The longest name escaping can make: 100 quote characters carrying 300 bytes of accents.
    let name = String(repeating: "\"\u{301}", count: 50) + String(repeating: "\"\u{301}\u{301}", count: 50)
    // 1,000 characters in 3,960 bytes that take 8,880 bytes on the wire.
    let description =
      String(repeating: "\u{2028}", count: 984)
      + String(repeating: "a" + String(repeating: "\u{301}", count: 31), count: 16)
    let seller = String(repeating: "\\" + String(repeating: "\u{301}", count: 20), count: 3)
    #expect(name.utf8.count == 400 && name.count == 100)
    #expect(description.utf8.count == 3_960 && description.count == 1_000)
    #expect(seller.utf8.count == 123)
    let client = try server.client(as: seller)
    #expect(try client.request("INFO").rows[0]["user"] == seller)
    var batch = ""
    for _ in 0..<100 {
      batch +=
        "PRODUCT NEW name=\(Quoting.quote(name, isValue: true)) price=100000000.00 currency=USD discount=99999999.99"
        + " stock=1000000000 description=\(Quoting.quote(description, isValue: true))\n"
    }
    try client.send(batch)
    for index in 0..<100 {
      let reply = try client.readReply()
      #expect(reply.isOK, "product \(index): \(reply.lines.last ?? "")")
    }
    // What the old rules let through: one 64 KB character per name.
    for _ in 0..<100 {
      try client.send("PRODUCT NEW name=\(Self.heavyCharacter) price=1\n")
      #expect(try client.readReply().errorCode == .invalid)
    }
    let page = try client.request("LIST products size=100")
    #expect(page.rows.count == 100)
    let bytes = page.lines.reduce(0) { $0 + $1.utf8.count + 1 }
    #expect(bytes <= Self.largestReplyBytes, "a page took \(bytes) bytes")
    #expect(
      page.rows[0]["name"] == name && page.rows[0]["description"] == description && page.rows[0]["seller"] == seller)
  }

  @Test("STOCK names at most 100 items, so a short line cannot ask for a reply many times its size")
  func stockNamesBounded() throws {
    let server = try EngineHarness()
    let client = try server.client(as: "tester", role: .staff)
    let hundred = Array(repeating: "kiwi", count: 100).joined(separator: " ")
    #expect(try client.request("STOCK \(hundred)").rows.count == 100)
    #expect(try client.request("STOCK \(hundred) kiwi").errorCode == .limit)
    #expect(try client.request("STOCK").isOK)
  }
}

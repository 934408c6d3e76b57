import Foundation
import StockroomClient
import StockroomProtocol
import Testing

@Suite("Rendering replies for people, scripts and jq")
struct RenderingTests {
  private func reply(_ lines: [String]) -> Reply {
    var reader = ReplyReader()
    for line in lines {
      if case .reply(let reply)? = reader.feed(line) { return reply }
    }
    Issue.record("no status line in \(lines)")
    return Reply(rows: [], status: .ok(""), lines: [])
  }

  private let fruits = [
    "* strawberry kind=fruit name=Strawberry aliases=딸기 stock=10",
    "* banana kind=fruit name=Banana aliases=바나나 stock=8",
    "* pineapple kind=fruit name=Pineapple aliases=파인애플 stock=0",
    "OK total=3 page=1 pages=1 size=20",
  ]

  @Test("Hangul, CJK and emoji take two cells; combining marks take none")
  func displayWidths() {
    #expect(DisplayWidth.of("banana") == 6)
    #expect(DisplayWidth.of("바나나") == 6)
    #expect(DisplayWidth.of("딸바쥬스") == 8)
    #expect(DisplayWidth.of("漢字") == 4)
    #expect(DisplayWidth.of("ＡＢ") == 4)
    #expect(DisplayWidth.of("🍌") == 2)
    #expect(DisplayWidth.of("e\u{301}") == 1)
    #expect(DisplayWidth.of("\u{1100}\u{1161}") == 2)
    #expect(DisplayWidth.truncate("파인애플쥬스", to: 7) == "파인애…")
  }

  @Test("table columns after Korean text start at the same display column on every row")
  func koreanColumnsLineUp() throws {
    let renderer = Renderer(mode: .human, palette: Palette(isEnabled: false))
    let lines = renderer.render(reply(fruits)).split(separator: "\n").map(String.init)
    #expect(lines.count == 5)
    #expect(lines.last == "OK total=3 page=1 pages=1 size=20")
    let table = Array(lines.dropLast())
    // The stock column is right-aligned, so its last digit sits in one display column.
    func cellsBefore(_ line: String, _ marker: String) -> Int? {
      guard let range = line.range(of: marker) else { return nil }
      return DisplayWidth.of(line[..<range.lowerBound])
    }
    let stockEnds = try table.dropFirst().map { line in
      let digits = try #require(line.firstMatch(of: /\s(\d+)\s+[█░]/))
      return DisplayWidth.of(line[..<digits.output.1.endIndex])
    }
    #expect(Set(stockEnds).count == 1, "stock digits end in different columns: \(stockEnds)")
    let headerStock = try #require(cellsBefore(table[0], "stock"))
    #expect(headerStock + "stock".count == stockEnds[0])
    let aliasStarts = table.compactMap { line in
      ["aliases", "딸기", "바나나", "파인애플"].lazy.compactMap { cellsBefore(line, $0) }.first
    }
    #expect(aliasStarts.count == 4 && Set(aliasStarts).count == 1, "\(aliasStarts)")
  }

  @Test("a table wider than the terminal gives up descriptions and secondary prices first, keeping stock")
  func tablesFitTheTerminal() {
    let dishes = [
      "* doenjang_jjigae kind=dish name=된장찌개 section=soup aliases=된장,doenjangjjigae price=8000 currency=KRW discount=10% final_price=7200 price_text=₩7,200 regular_price_text=₩8,000 stock=12 description=\"Soybean paste stew with tofu, zucchini, potato and mushrooms.\"",
      "* miyeokguk kind=dish name=미역국 section=soup aliases=미역,miyeok price=7000 currency=KRW final_price=7000 price_text=₩7,000 stock=15 description=\"Light seaweed soup simmered with beef and sesame oil.\"",
      "OK total=2 page=1 pages=1 size=20",
    ]
    var narrow = Renderer(mode: .human, palette: Palette(isEnabled: false))
    narrow.terminalWidth = { 80 }
    let lines = narrow.render(reply(dishes)).split(separator: "\n").map(String.init)
    #expect(lines.allSatisfy { DisplayWidth.of($0) <= 80 }, "\(lines.map { DisplayWidth.of($0) })")
    for kept in ["id", "kind", "name", "price_text", "stock"] { #expect(lines[0].contains(kept), "\(kept)") }
    #expect(!lines[0].contains("description"))
    #expect(lines[1].contains("된장찌개") && lines[1].contains("█"))
    // Without a terminal nothing is dropped.
    let wide = Renderer(mode: .human, palette: Palette(isEnabled: false)).render(reply(dishes))
    #expect(wide.contains("description") && wide.contains("Soybean"))
  }

  @Test("a stock level gets a bar as long as its share of the column's largest")
  func stockBars() {
    let renderer = Renderer(mode: .human, palette: Palette(isEnabled: false))
    let text = renderer.render(reply(fruits))
    #expect(text.contains("10  ██████████"))
    #expect(text.contains("8  ████████░░"))
    #expect(text.contains("0  ░░░░░░░░░░"))
  }

  @Test("a JSON reply carries status, code, message, fields and rows as objects")
  func jsonConversion() throws {
    let json = JSONReply.encode(reply(fruits))
    #expect(!json.contains("\n"))
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    #expect(object["status"] as? String == "OK")
    #expect(object["code"] is NSNull)
    #expect(object["message"] as? String == "total=3 page=1 pages=1 size=20")
    let fields = try #require(object["fields"] as? [String: Any])
    #expect(fields["total"] as? Int == 3)
    #expect(fields["id"] == nil)
    let rows = try #require(object["rows"] as? [[String: Any]])
    #expect(rows.count == 3)
    #expect(rows[1]["id"] as? String == "banana")
    #expect(rows[1]["aliases"] as? String == "바나나")
    #expect(rows[1]["stock"] as? Int == 8)

    let error = JSONReply.encode(reply(["ERR NOTFOUND no item named \"x\\y\""]))
    let errorObject = try #require(
      try JSONSerialization.jsonObject(with: Data(error.utf8)) as? [String: Any])
    #expect(errorObject["status"] as? String == "ERR")
    #expect(errorObject["code"] as? String == "NOTFOUND")
    #expect(errorObject["message"] as? String == "no item named \"x\\y\"")
    #expect((errorObject["rows"] as? [Any])?.isEmpty == true)
  }

  @Test("values that are not plain whole numbers stay strings in JSON")
  func jsonKeepsText() throws {
    let json = JSONReply.encode(
      event: try Row(parsing: "stock item=banana level=08 change=+2 order=12 note=\"a\\nb\""))
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    #expect(object["event"] as? String == "stock")
    #expect(object["level"] as? String == "08")
    #expect(object["change"] as? String == "+2")
    #expect(object["order"] as? Int == 12)
    #expect(object["note"] as? String == "a\nb")
  }

  @Test("NO_COLOR and --no-color turn colour off; a terminal otherwise gets it")
  func colourRespectsNoColor() {
    #expect(Palette.wanted(environment: [:], isTerminal: true, noColorFlag: false))
    #expect(!Palette.wanted(environment: ["NO_COLOR": "1"], isTerminal: true, noColorFlag: false))
    #expect(!Palette.wanted(environment: [:], isTerminal: true, noColorFlag: true))
    #expect(!Palette.wanted(environment: [:], isTerminal: false, noColorFlag: false))
    let coloured = Renderer(mode: .human, palette: Palette(isEnabled: true))
    let plain = Renderer(mode: .human, palette: Palette(isEnabled: false))
    #expect(coloured.render(reply(fruits)).contains("\u{1B}["))
    #expect(!plain.render(reply(fruits)).contains("\u{1B}["))
    #expect(coloured.render(reply(["ERR ARGS too few"])).hasPrefix("\u{1B}[31m"))
  }

  @Test("raw mode prints the protocol lines exactly as they came")
  func rawIsVerbatim() {
    let renderer = Renderer(mode: .raw, palette: Palette(isEnabled: true))
    #expect(renderer.render(reply(fruits)) == fruits.joined(separator: "\n") + "\n")
  }

  @Test("diary dates read as the user's language: Korean under ko, English otherwise")
  func localeDates() {
    #expect(DateStyle.from(environment: ["LANG": "ko_KR.UTF-8"]) == .korean)
    #expect(DateStyle.from(environment: ["LANG": "ko_KR.UTF-8", "LC_ALL": "en_US.UTF-8"]) == .english)
    #expect(DateStyle.from(environment: ["LANG": "en_US.UTF-8", "LC_TIME": "ko_KR"]) == .korean)
    #expect(DateStyle.from(environment: [:]) == .english)
    #expect(DateStyle.korean.format(iso: "2026-11-29T13:33:50Z") == "2026년 11월 29일")
    #expect(DateStyle.english.format(iso: "2026-11-29T13:33:50Z") == "Nov 29, 2026")
    #expect(DateStyle.english.format(iso: "banana") == nil)
    let diary = reply([
      "* 1 kind=diary title=\"Market day\" created=2026-11-29T13:33:50Z updated=2026-11-30T08:00:00Z",
      "OK total=1 page=1 pages=1 size=20",
    ])
    let korean = Renderer(mode: .human, palette: Palette(isEnabled: false), dates: .korean)
    #expect(korean.render(diary).contains("2026년 11월 29일"))
    #expect(korean.render(diary).contains("2026년 11월 30일"))
    let raw = Renderer(mode: .raw, palette: Palette(isEnabled: false), dates: .korean)
    #expect(raw.render(diary).contains("created=2026-11-29T13:33:50Z"))
  }

  @Test("a stock event reads as a sentence for people and stays verbatim raw")
  func events() throws {
    let line = "! stock item=banana level=8 change=-2 cause=order order=12 user=alice"
    let row = try Row(parsing: String(line.dropFirst(2)))
    let human = Renderer(mode: .human, palette: Palette(isEnabled: false))
    #expect(human.render(event: row, line: line) == "! stock banana → 8 (-2, order 12, by alice)\n")
    let raw = Renderer(mode: .raw, palette: Palette(isEnabled: false))
    #expect(raw.render(event: row, line: line) == line + "\n")
    let named = "! stock item=banana name=Banana level=8 change=-2 cause=order order=12"
    #expect(
      human.render(event: try Row(parsing: String(named.dropFirst(2))), line: named)
        == "! stock banana → 8 (-2, order 12)\n")
    let product = "! stock item=p8 name=떡 level=4 change=+4 cause=listed user=alice"
    #expect(
      human.render(event: try Row(parsing: String(product.dropFirst(2))), line: product)
        == "! stock p8 (떡) → 4 (+4, listed, by alice)\n")
    let idle = "! closing reason=idle idle_seconds=600"
    #expect(
      human.render(event: try Row(parsing: String(idle.dropFirst(2))), line: idle)
        == "! the server closed this idle connection after 600 s; the next command reconnects\n")
  }
}

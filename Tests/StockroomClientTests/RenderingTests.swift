import Foundation
import StockroomClient
import StockroomProtocol
import Testing

@Suite("Rendering replies for people, scripts and jq", .timeLimit(.minutes(30)))
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
    "* strawberry kind=fruit name=Strawberry aliases=딸기 stock=10 initial=10",
    "* banana kind=fruit name=Banana aliases=바나나 stock=8 initial=10",
    "* pineapple kind=fruit name=Pineapple aliases=파인애플 stock=0 initial=10",
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
    #expect(lines.last == "OK 3 fruits")
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

  private static let sideDishes = [
    "* side kind=section name=\"Side dishes\" aliases=밑반찬 count=2",
    "* jinmichae_bokkeum kind=dish name=진미채볶음 section=side aliases=진미채,jinmichae price=6000 currency=KRW sale_price=5000 final_price=5000 price_text=₩5,000 regular_price_text=₩6,000 stock=14 initial=14 description=\"Dried shredded squid stir-fried in a sweet and spicy gochujang glaze.\"",
    "* doenjang_jjigae kind=dish name=된장찌개 section=soup aliases=된장,doenjangjjigae price=8000 currency=KRW discount=10% final_price=7200 price_text=₩7,200 regular_price_text=₩8,000 stock=12 initial=12 description=\"Soybean paste stew with tofu, zucchini, potato and mushrooms.\"",
    "OK total=2 page=1 pages=1 size=20",
  ]

  private func renderer(width: Int?) -> Renderer {
    var renderer = Renderer(mode: .human, palette: Palette(isEnabled: false))
    renderer.terminalWidth = { width }
    return renderer
  }

  @Test("dishes show one price with its discount or sale, at 120, 80 and 60 columns, and say what was left out")
  func dishPricesSurviveNarrowTerminals() {
    for width in [120, 80, 60] {
      let text = renderer(width: width).render(reply(Self.sideDishes))
      let lines = text.split(separator: "\n").map(String.init)
      #expect(lines.allSatisfy { DisplayWidth.of($0) <= width }, "\(width): \(text)")
      // The regular price is on the dish's own lines, not in a column the terminal dropped.
      if let first = lines.firstIndex(where: { $0.hasPrefix("jinmichae_bokkeum") }) {
        let dish = lines[first...].prefix(3).joined(separator: " ")
        #expect(dish.contains("₩5,000") && dish.contains("(sale, was") && dish.contains("₩6,000"), "\(width): \(text)")
      } else {
        Issue.record("no jinmichae_bokkeum at \(width): \(text)")
      }
      #expect(text.contains("₩7,200") && text.contains("10% off") && text.contains("₩8,000"), "\(width): \(text)")
      #expect(!text.contains("price_text") && !text.contains("final_price"), "\(width): \(text)")
      #expect(lines.contains { $0.hasPrefix("jinmichae_bokkeum") && $0.contains("14") }, "\(width): \(text)")
      #expect(text.contains("descriptions left out: SHOW <id> shows one"), "\(width): \(text)")
      #expect(text.contains("Side dishes (side, 밑반찬, 2 dishes)"), "\(width): \(text)")
    }
    let narrow = renderer(width: 60).render(reply(Self.sideDishes))
    #expect(narrow.contains("left out to fit 60 columns: stock bars; --wide shows it"), "\(narrow)")
    let wide = renderer(width: nil).render(reply(Self.sideDishes))
    #expect(wide.contains("₩5,000 (sale, was ₩6,000)  ") && wide.contains("██████████"), "\(wide)")
    #expect(!wide.contains("left out to fit"))
  }

  @Test("exhibits at 120 columns keep their summary, wrapped at spaces with continuation lines indented in its column")
  func exhibitSummariesWrap() throws {
    let exhibits = reply([
      "* eiffel_tower kind=exhibit name=\"Eiffel Tower\" aliases=에펠탑 summary=\"The iron tower from the 1889 fair, repainted and reused as a centerpiece in 1900.\"",
      "* cineorama kind=exhibit name=Cinéorama aliases=시네오라마 summary=\"A short-lived attraction that simulated a balloon flight with panoramic film.\"",
      "OK total=2 page=1 pages=1 size=20",
    ])
    for width in [120, 60] {
      let lines = renderer(width: width).render(exhibits).split(separator: "\n").map(String.init)
      #expect(lines.allSatisfy { DisplayWidth.of($0) <= width }, "\(lines)")
      #expect(lines[0].contains("summary"), "\(lines)")
      let column = try #require(lines[0].range(of: "summary")).lowerBound
      let start = DisplayWidth.of(lines[0][..<column])
      // Each line from the summary's display column on.
      func summaryPart(_ line: String) -> String {
        var cells = 0
        var index = line.startIndex
        while index < line.endIndex && cells < start {
          cells += DisplayWidth.of(String(line[index]))
          index = line.index(after: index)
        }
        return String(line[index...])
      }
      let parts = lines.dropFirst().prefix { !$0.hasPrefix("OK") && !$0.contains("left out") }
        .map { (continues: $0.hasPrefix(" "), text: summaryPart($0)) }
      // A wrapped line is indented under the first, so it reads as the same summary.
      for part in parts where part.continues { #expect(part.text.hasPrefix("  "), "\(lines)") }
      let text = parts.map { $0.text.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
      #expect(
        text.contains("The iron tower from the 1889 fair, repainted and reused as a centerpiece in 1900."), "\(lines)")
      // Never cut inside a word: every piece of the summary is a whole word.
      let words = Set(
        "The iron tower from the 1889 fair, repainted and reused as a centerpiece in 1900. A short-lived attraction that simulated a balloon flight with panoramic film."
          .split(separator: " ").map(String.init))
      for piece in text.split(separator: " ") where !piece.isEmpty {
        #expect(words.contains(String(piece)), "cut word '\(piece)'")
      }
    }
    #expect(!renderer(width: 120).render(exhibits).contains("left out"))
  }

  @Test("a stock bar is drawn against the item's starting level, the same in every view")
  func stockBarsAgainstStartingLevel() {
    let stock = reply(["* banana kind=fruit stock=1 initial=10", "* kiwi kind=fruit stock=10 initial=10", "OK 2 items"])
    let text = renderer(width: 80).render(stock)
    // Banana at 1 of 10 is nearly empty, not the full bar of being the largest in a one-row table.
    #expect(text.contains("banana  fruit      1  █░░░░░░░░░"), "\(text)")
    #expect(text.contains("kiwi    fruit     10  ██████████"), "\(text)")
    let alone = renderer(width: 80).render(reply(["* banana kind=fruit stock=1 initial=10", "OK 1 item"]))
    #expect(alone.contains("1  █░░░░░░░░░"), "\(alone)")
    let listed = renderer(width: 80).render(
      reply(["* banana kind=fruit name=Banana aliases=바나나 stock=1 initial=10", "OK total=1 page=1 pages=1 size=20"]))
    #expect(listed.contains("1  █░░░░░░░░░"), "\(listed)")
    let coloured = Renderer(mode: .human, palette: Palette(isEnabled: true)).render(stock)
    #expect(coloured.contains("\u{1B}[31m█░░░░░░░░░"), "low stock is red: \(coloured)")
    // Restocked past the start, the shelf is full.
    #expect(
      renderer(width: 80).render(reply(["* kiwi kind=fruit stock=25 initial=10", "OK 1 item"])).contains(
        "25  ██████████"))
  }

  @Test("one item, two items; paged lists say how many and where the next page is")
  func statusLinesInWords() {
    let one = renderer(width: 80).render(reply(["* kiwi kind=fruit stock=10 initial=10", "OK 1 item"]))
    #expect(one.hasSuffix("OK 1 item\n"), "\(one)")
    let two = renderer(width: 80).render(
      reply(["* kiwi kind=fruit stock=10 initial=10", "* mango kind=fruit stock=10 initial=10", "OK 2 items"]))
    #expect(two.hasSuffix("OK 2 items\n"))
    let paged = renderer(width: 80).render(
      reply(["* mango kind=fruit name=Mango aliases=망고 stock=10 initial=10", "OK total=5 page=2 pages=3 size=2"]))
    #expect(paged.hasSuffix("OK 5 fruits, page 2 of 3; page=3 for the next\n"), "\(paged)")
    let sections = renderer(width: 80).render(
      reply(["* soup kind=section name=Soups aliases=국찌개 count=5", "OK total=1 page=1 pages=1 size=20"]))
    #expect(sections.hasSuffix("OK 1 section\n"), "\(sections)")
    #expect(renderer(width: 80).render(reply(["OK total=0 page=1 pages=1 size=20"])) == "OK none\n")
  }

  @Test("EXPO shows visitors once, for people, and no protocol leftovers")
  func expoCard() {
    let expo = reply([
      "* expo kind=expo title=\"Exposition Universelle de 1900\" visitors=48130300 visitors_text=48,130,300 location=\"Paris, France\" opened=1900-04-14 closed=1900-11-12 exhibits=8 description=\"The 1900 world's fair in Paris celebrated the achievements of the nineteenth century while looking ahead to the new one.\"",
      "OK LIST exhibits for the exhibits",
    ])
    let text = renderer(width: 60).render(expo)
    #expect(text.contains("48,130,300") && !text.contains("48130300") && !text.contains("visitors_text"), "\(text)")
    #expect(!text.contains("LIST exhibits for the exhibits"), "\(text)")
    #expect(text.contains("LIST exhibits"), "\(text)")
    #expect(text.contains("Apr 14, 1900"), "\(text)")
    #expect(text.split(separator: "\n").allSatisfy { DisplayWidth.of($0) <= 60 }, "\(text)")
  }

  @Test("an order reads as a receipt: quantities, unit and line prices, total, and what stock went down to")
  func receipts() {
    let order = reply([
      "* kiwi kind=fruit quantity=2",
      "* jeyuk_bokkeum kind=dish quantity=3 unit_price=10200 currency=KRW subtotal=30600",
      "* p2 kind=product quantity=1 unit_price=27.00 currency=USD subtotal=27.00",
      "* kiwi kind=taken quantity=2 stock=8",
      "* jeyuk_bokkeum kind=taken quantity=3 stock=7",
      "* p2 kind=taken quantity=1 stock=2",
      "OK order=2 total_krw=30600 total_usd=27.00 total_text=\"₩30,600 + $27.00\"",
    ])
    let text = renderer(width: 80).render(order)
    let lines = text.split(separator: "\n").map(String.init)
    #expect(lines.first == "Order 2", "\(text)")
    #expect(lines.contains { $0.contains("2 ×") && $0.contains("kiwi") }, "\(text)")
    #expect(
      lines.contains {
        $0.contains("3 ×") && $0.contains("jeyuk_bokkeum") && $0.contains("₩10,200") && $0.contains("₩30,600")
      }, "\(text)")
    #expect(lines.contains { $0.contains("p2") && $0.contains("$27.00") }, "\(text)")
    #expect(lines.contains { $0.contains("Total") && $0.contains("₩30,600 + $27.00") }, "\(text)")
    #expect(text.contains("Stock left: kiwi 8, jeyuk_bokkeum 7, p2 2"), "\(text)")
    #expect(!text.contains("unit_price") && !text.contains("kind=taken") && !text.contains("total_krw"), "\(text)")
    #expect(lines.last == "OK order=2", "\(text)")
  }

  @Test("LIST orders shows each order's total as money")
  func orderTotals() {
    let orders = reply([
      "* 2 kind=order user=alice placed=2026-12-01T03:52:44Z items=\"1 strawberry_banana_juice, 2 galbi_jjim\" total_krw=57600",
      "* 1 kind=order user=alice placed=2026-12-01T03:52:44Z items=\"1 banana_juice\"",
      "OK total=2 page=1 pages=1 size=20",
    ])
    let text = renderer(width: 80).render(orders)
    #expect(text.contains("₩57,600") && !text.contains("57600") && !text.contains("total_krw"), "\(text)")
    #expect(text.hasSuffix("OK 2 orders\n"), "\(text)")
  }

  @Test("STOCKTAKE at 60 columns keeps the starting level and restocks, and the ledger below")
  func stocktakeKeepsTheLedgerTotals() {
    let stocktake = reply([
      "* kiwi kind=fruit stock=13 initial=10 restocked=5 corrected=1 taken=1 balances=yes",
      "* 9 kind=ledger item=kiwi change=+5 cause=restock user=bob at=2026-12-01T03:52:51Z",
      "* 7 kind=ledger item=kiwi change=-1 cause=stocktake user=bob at=2026-12-01T03:52:50Z",
      "OK total=2 page=1 pages=1 size=20",
    ])
    let text = renderer(width: 60).render(stocktake)
    #expect(text.contains("initial 10 + restocked 5 − corrected 1 − taken 1 = 13"), "\(text)")
    #expect(text.contains("restock") && text.contains("+5") && text.contains("bob"), "\(text)")
    #expect(text.split(separator: "\n").allSatisfy { DisplayWidth.of($0) <= 60 }, "\(text)")
    #expect(text.hasSuffix("OK 2 movements\n"), "\(text)")
  }

  @Test("a diary entry's body is indented under its title, every line of it, wrapped at spaces")
  func diaryBodies() {
    let entry = reply([
      "* 1 kind=diary title=\"Market day\" body=\"Bought 딸기.\\nSold out by noon, and then we sold everything else we had on the stall as well.\" owner=alice created=2026-11-29T13:33:50Z updated=2026-11-30T08:00:00Z",
      "OK diary=1",
    ])
    let lines = renderer(width: 60).render(entry).split(separator: "\n").map(String.init)
    #expect(lines[0] == "1  Market day", "\(lines)")
    #expect(lines[1] == "    Bought 딸기.", "\(lines)")
    #expect(lines[2].hasPrefix("    Sold out by noon,"), "\(lines)")
    #expect(lines[3].hasPrefix("    ") && !lines[3].hasPrefix("     "), "\(lines)")
    #expect(lines.allSatisfy { DisplayWidth.of($0) <= 60 }, "\(lines)")
  }

  @Test("text wraps at spaces, never inside a word")
  func wrapping() {
    #expect(TextWrap.lines("the quick brown fox", width: 10) == ["the quick", "brown fox"])
    #expect(TextWrap.lines("오늘은 딸기를 샀다", width: 7) == ["오늘은", "딸기를", "샀다"])
    #expect(TextWrap.lines("a\nb c", width: 10) == ["a", "b c"])
    #expect(
      TextWrap.lines("the quick brown fox\njumps", width: 10, hanging: 2) == ["the quick", "  brown", "  fox", "jumps"])
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

  @Test("a status line's words stay its message: OK 1 item is not fields {args: [1, items]}")
  func jsonStatusAsText() throws {
    let json = JSONReply.encode(reply(["* kiwi kind=fruit stock=8 initial=10", "OK 1 item"]))
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    #expect(object["message"] as? String == "1 item")
    #expect((object["fields"] as? [String: Any])?.isEmpty == true, "\(json)")
    #expect(!json.contains("args"), "\(json)")
    let order = JSONReply.encode(reply(["OK order=7 total=28800 new"]))
    let orderObject = try #require(try JSONSerialization.jsonObject(with: Data(order.utf8)) as? [String: Any])
    #expect(orderObject["fields"] as? [String: Int] == ["order": 7, "total": 28800])
    #expect(orderObject["message"] as? String == "order=7 total=28800 new")
  }

  @Test("pretty JSON, for a terminal: one key a line, one row a line, the same object as one line")
  func jsonPretty() throws {
    let pretty = JSONReply.encode(reply(fruits), pretty: true)
    let lines = pretty.split(separator: "\n").map(String.init)
    #expect(lines.first == "{" && lines.last == "}", "\(pretty)")
    #expect(lines.contains(#"  "status": "OK","#), "\(pretty)")
    #expect(lines.contains(#"  "message": "total=3 page=1 pages=1 size=20","#), "\(pretty)")
    let rowLines = lines.filter { $0.hasPrefix(#"    {"id": "#) }
    #expect(rowLines.count == 3, "\(pretty)")
    #expect(rowLines[1].contains(#""stock": 8"#), "\(pretty)")
    let parsed = try JSONSerialization.jsonObject(with: Data(pretty.utf8)) as? NSDictionary
    let compact = try JSONSerialization.jsonObject(with: Data(JSONReply.encode(reply(fruits)).utf8)) as? NSDictionary
    #expect(parsed != nil && parsed == compact)
    let empty = JSONReply.encode(reply(["ERR NOTFOUND no item named 'x'"]), pretty: true)
    #expect(empty.contains(#"  "rows": []"#) && empty.contains(#"  "fields": {}"#), "\(empty)")
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

  private static let instant = "2026-11-29T13:33:50Z"

  @Test("dates show the local date and time of TZ, in the language of LC_ALL, LC_TIME or LANG")
  func localeDates() {
    let seoul = DateStyle.from(environment: ["TZ": "Asia/Seoul", "LANG": "de_DE.UTF-8"])
    #expect(seoul.localeIdentifier == "de_DE")
    #expect(seoul.format(iso: Self.instant) == "29. Nov. 2026, 22:33", "\(seoul.format(iso: Self.instant) ?? "nil")")
    let newYork = DateStyle.from(environment: ["TZ": "America/New_York", "LANG": "en_US.UTF-8"])
    #expect(
      newYork.format(iso: Self.instant)?.contains("8:33") == true, "\(newYork.format(iso: Self.instant) ?? "nil")")
    #expect(newYork.format(iso: Self.instant)?.contains("Nov 29, 2026") == true)
    let tokyo = DateStyle.from(environment: ["TZ": "Asia/Tokyo", "LC_ALL": "ja_JP.UTF-8", "LANG": "en_US.UTF-8"])
    #expect(
      tokyo.format(iso: Self.instant)?.hasPrefix("2026年11月29日") == true, "\(tokyo.format(iso: Self.instant) ?? "nil")")
    let korean = DateStyle.from(environment: ["TZ": "Asia/Seoul", "LANG": "en_US.UTF-8", "LC_TIME": "ko_KR.UTF-8"])
    #expect(korean.format(iso: Self.instant)?.hasPrefix("2026년 11월 29일") == true)
    #expect(DateStyle.from(environment: ["LANG": "C.UTF-8"]).localeIdentifier == "en_US")
    #expect(DateStyle.english.format(iso: "banana") == nil)
    // An edit later the same day shows a different time, not the same calendar day twice.
    let diary = reply([
      "* 1 kind=diary title=\"Market day\" body=x owner=alice created=2026-11-29T01:00:00Z updated=2026-11-29T09:15:00Z",
      "OK diary=1",
    ])
    var renderer = Renderer(mode: .human, palette: Palette(isEnabled: false), dates: newYork)
    renderer.terminalWidth = { 80 }
    let text = renderer.render(diary)
    #expect(text.contains("Nov 28, 2026") && text.contains("8:00") && text.contains("4:15"), "\(text)")
    let raw = Renderer(mode: .raw, palette: Palette(isEnabled: false), dates: seoul)
    #expect(raw.render(diary).contains("created=2026-11-29T01:00:00Z"))
  }

  @Test("recent times read as how long ago, in the user's language; a card keeps the time too")
  func relativeDates() {
    let now = try! Date(Self.instant, strategy: .iso8601).addingTimeInterval(180)
    var english = DateStyle.from(environment: ["TZ": "UTC", "LANG": "en_US.UTF-8"])
    english.now = { now }
    #expect(english.short(iso: Self.instant) == "3 min ago")
    #expect(english.full(iso: Self.instant)?.hasSuffix("(3 min ago)") == true)
    #expect(english.full(iso: Self.instant)?.contains("1:33") == true)
    var korean = DateStyle.from(environment: ["TZ": "Asia/Seoul", "LANG": "ko_KR.UTF-8"])
    korean.now = { now }
    #expect(korean.short(iso: Self.instant) == "3분 전")
    var german = DateStyle.from(environment: ["TZ": "Europe/Berlin", "LANG": "de_DE.UTF-8"])
    german.now = { now.addingTimeInterval(7200) }
    #expect(german.short(iso: Self.instant) == "29. Nov. 2026, 14:33", "\(german.short(iso: Self.instant) ?? "nil")")
  }

  @Test("a stock event reads as a sentence for people and stays verbatim raw")
  func events() throws {
    let line = "! stock item=banana level=8 change=-2 cause=order order=12 user=alice"
    let row = try Row(parsing: String(line.dropFirst(2)))
    var human = Renderer(mode: .human, palette: Palette(isEnabled: false))
    // The notices wrap to the width (below); the wording is checked unwrapped.
    human.terminalWidth = { nil }
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
        == "! the server closed this idle connection after 600 s; will reconnect on the next command\n")
    let down = #"! store state=down reason="connection refused""#
    #expect(
      human.render(event: try Row(parsing: String(down.dropFirst(2))), line: down)
        == "! the server lost the shop's database (connection refused); stock shown may be stale until it is back\n")
    human.terminalWidth = { 80 }
    #expect(
      human.render(event: try Row(parsing: String(down.dropFirst(2))), line: down)
        == "! the server lost the shop's database (connection refused); stock shown may be\n  stale until it is back\n")
    human.terminalWidth = { nil }
    let up = "! store state=up"
    #expect(
      human.render(event: try Row(parsing: String(up.dropFirst(2))), line: up)
        == "! the shop's database is back; the stock above is up to date again\n")
    let resync = "! stock item=banana level=3 change=-5 cause=resync"
    #expect(
      human.render(event: try Row(parsing: String(resync.dropFirst(2))), line: resync)
        == "! stock banana → 3 (-5, resync)\n")
  }
}

import StockroomProtocol
import Testing

@testable import StockroomClient

@Suite(
  "The line is coloured as typed from the command table and the server's names, in few bytes", .timeLimit(.minutes(30)))
struct LineHighlighterTests {
  private static func names() -> CatalogNames {
    var names = CatalogNames()
    var reader = ReplyReader()
    for line in [
      "* kiwi kind=fruit aliases= name=Kiwi", "* kimchi_jjigae kind=dish aliases=김치찌개 name=김치찌개",
      "* strawberry_juice kind=juice name=\"Strawberry Juice\" aliases=딸기쥬스", "* soup kind=section aliases=국찌개",
      "* p1 kind=product name=\"Red apple\" aliases=", "OK count=5 generation=1",
    ] {
      if case .reply(let reply)? = reader.feed(line) { names.update(names: reply) }
    }
    for line in ["* dishes kind=category count=5", "OK 1 categories"] {
      if case .reply(let reply)? = reader.feed(line) { names.update(categories: reply) }
    }
    return names
  }

  private let highlighter = LineHighlighter(names: LineHighlighterTests.names())

  /// Each word that carries a style, with it; plain words and spaces left out.
  private func styled(_ line: String, by highlighter: LineHighlighter? = nil) -> [String] {
    let spans = (highlighter ?? self.highlighter).spans(line)
    return spans.compactMap { span in span.style.map { "\(span.text):\($0)" } }
  }

  @Test("the command word, items known and unknown, numbers, options and quoted text")
  func kinds() {
    #expect(
      styled("ORDER kiwi 2 xq 김치찌개 key=ab")
        == ["ORDER:command", "kiwi:item", "2:number", "xq:unknown", "김치찌개:item", "key=:option"])
    #expect(
      styled(#"order "Strawberry Juice" 3 Kiwi"#) == [
        "order:command", "\"Strawberry Juice\":item", "3:number", "Kiwi:item",
      ])
    #expect(styled(#"DIARY NEW "a b" body"#) == ["DIARY:command", "NEW:command", "\"a b\":quoted"])
    #expect(
      styled("LIST dishes soup size=5 page=x zz=1") == [
        "LIST:command", "dishes:item", "soup:item", "size=:option", "5:number", "page=:option", "x:unknown",
        "zz=:unknown",
      ])
    #expect(styled("ADD kiwi x") == ["ADD:command", "kiwi:item", "x:unknown"])
    #expect(styled("PING a b") == ["PING:command", "b:unknown"])
    #expect(styled("DIARY NOPE 1") == ["DIARY:command", "NOPE:unknown"])
  }

  @Test("every argument the table gives a kind is checked: SHOW's name, a category, section, diary or product id")
  func everyKindChecked() {
    #expect(styled("SHOW xyz ") == ["SHOW:command", "xyz:unknown"])
    #expect(styled("SHOW 김치찌게 ") == ["SHOW:command", "김치찌게:unknown"])
    #expect(styled("SHOW 김치찌개 ") == ["SHOW:command", "김치찌개:item"])
    #expect(styled("LIST dishs ") == ["LIST:command", "dishs:unknown"])
    #expect(styled("LIST dishes soupp ") == ["LIST:command", "dishes:item", "soupp:unknown"])
    #expect(styled("DIARY SHOW abc ") == ["DIARY:command", "SHOW:command", "abc:unknown"])
    #expect(styled("PRODUCT SHOW p9x ") == ["PRODUCT:command", "SHOW:command", "p9x:unknown"])
    #expect(styled("LIST dishes zz=1 ") == ["LIST:command", "dishes:item", "zz=:unknown"])
  }

  @Test("a word still being typed stays plain while it can become right, and is marked once it cannot")
  func typing() {
    #expect(styled("ORD") == [])
    #expect(styled("ORDX") == ["ORDX:unknown"])
    #expect(styled("ORD ") == ["ORD:unknown"])
    #expect(styled("ORDER ki") == ["ORDER:command"])
    #expect(styled("ORDER ki ") == ["ORDER:command", "ki:unknown"])
    #expect(styled("ORDER kx") == ["ORDER:command", "kx:unknown"])
    #expect(styled("DIARY NE") == ["DIARY:command"])
    // `pa` may still become the option `page=`; `pa ` cannot.
    #expect(styled("LIST dishes pa") == ["LIST:command", "dishes:item"])
    #expect(styled("LIST dishes pa ") == ["LIST:command", "dishes:item", "pa:unknown"])
  }

  @Test("before NAMES answers no item is called unknown; a password is shown plain")
  func nothingGuessed() {
    let empty = LineHighlighter(names: CatalogNames())
    #expect(styled("ORDER xq 2 ", by: empty) == ["ORDER:command", "2:number"])
    #expect(styled("LOGIN alice pw ") == ["LOGIN:command"])
  }

  @Test("client commands, and what a pipe or :! hands to the shell left plain")
  func clientAndShell() {
    #expect(styled(":json on") == [":json:command", "on:command"])
    #expect(styled(":json maybe") == [":json:command", "maybe:unknown"])
    #expect(styled(":jsn") == [":jsn:unknown"])
    #expect(styled(":watch 2 STOCK kiwi") == [":watch:command", "2:number", "STOCK:command", "kiwi:item"])
    #expect(styled("STOCK kiwi | grep 2 > x") == ["STOCK:command", "kiwi:item"])
    #expect(styled(#"PING "a | b""#) == ["PING:command", "\"a | b\":quoted"])
    #expect(styled(":!ls ORDER") == [":!ls:command"])
  }

  @Test("the runs joined are the line exactly, spaces and quotes included")
  func runsAreTheLine() {
    for line in [
      "", " ", "ORDER  kiwi   2 ", #"DIARY NEW "a \" b" x"#, #"PING "open"#, "STOCK | wc", "a=b c", "김치 찌개  ",
    ] {
      #expect(highlighter.spans(line).map(\.text).joined() == line)
    }
  }

  @Test("each key's redraw costs the line's bytes and a bounded few more, on one row or wrapped")
  func bytesPerKey() {
    let line = "ORDER kiwi 2 김치찌개 3 strawberry_juice key=abc"
    for columns in [120, 40] {
      let overlay = LineOverlay(columns: columns, prompt: "stockroom 127.0.0.1:7878> ")
      var typed = ""
      for character in line {
        typed.append(character)
        let spans = highlighter.spans(typed)
        let bytes = overlay.recoloured(spans, beforeCursor: typed).utf8.count
        // Per styled run: ESC [ 31;4 m and ESC [0m, at most 11; the moves there and back, at
        // most 2 × (CR + up or down + right), 20.
        let styledRuns = spans.filter { $0.style != nil }.count
        #expect(bytes <= typed.utf8.count + 11 * styledRuns + 20, "\(typed): \(bytes) bytes")
        #expect(bytes <= 160, "\(typed): \(bytes) bytes")
      }
    }
  }

  @Test("the cursor goes back where libedit left it, mid-line and across a wrap")
  func cursorRestored() {
    let overlay = LineOverlay(columns: 40, prompt: "stockroom 127.0.0.1:7878> ")
    let spans = [LineSpan("ORDER", .command), LineSpan(" kiwi 2 mango 3 banana")]
    // The prompt takes 26 cells: the line starts there, 14 cells of it fit, the rest wraps.
    #expect(
      overlay.recoloured(spans, beforeCursor: "ORDER")
        == "\r\u{1B}[26C\u{1B}[32mORDER\u{1B}[0m kiwi 2 mango 3 banana\r\u{1B}[1A\u{1B}[31C")
    #expect(
      overlay.recoloured(spans, beforeCursor: "ORDER kiwi 2 mango 3 banana")
        == "\r\u{1B}[1A\u{1B}[26C\u{1B}[32mORDER\u{1B}[0m kiwi 2 mango 3 banana\r\u{1B}[13C")
    // Ending at the margin, the terminal is still on the first row; libedit's cursor is on the next.
    let full = [LineSpan("ORDER", .command), LineSpan(" kiwi 2 m")]
    #expect(
      overlay.recoloured(full, beforeCursor: "ORDER kiwi 2 m")
        == "\r\u{1B}[1A\u{1B}[26C\u{1B}[32mORDER\u{1B}[0m kiwi 2 m\r\u{1B}[1B")
  }
}

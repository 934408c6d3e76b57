import StockroomClient
import StockroomProtocol
import Testing

@Suite("--csv output", .timeLimit(.minutes(30)))
struct CSVWriterTests {
  @Test("RFC 4180 quoting: commas, quotes, line breaks and edge spaces are quoted, quotes doubled")
  func quoting() {
    #expect(CSVWriter.field("plain 딸기") == "plain 딸기")
    #expect(CSVWriter.field("a,b") == "\"a,b\"")
    #expect(CSVWriter.field("say \"hi\"") == "\"say \"\"hi\"\"\"")
    #expect(CSVWriter.field("two\nlines") == "\"two\nlines\"")
    #expect(CSVWriter.field("crlf\r\nend") == "\"crlf\r\nend\"")
    #expect(CSVWriter.field(" padded") == "\" padded\"")
    #expect(CSVWriter.field("") == "")
  }

  @Test("one header from the keys in first-seen order; a missing field is an empty cell")
  func table() throws {
    let rows = [
      try Row(parsing: #"1 kind=diary title="Market, day" preview=x"#),
      try Row(parsing: #"2 kind=diary title=Plain updated=2026-12-01T03:52:44Z"#),
    ]
    let reply = Reply(rows: rows, status: .ok("total=2"), lines: [])
    #expect(
      CSVWriter.render(reply) == """
        id,kind,title,preview,updated
        1,diary,"Market, day",x,
        2,diary,Plain,,2026-12-01T03:52:44Z

        """)
  }

  @Test("no rows: the status fields as one row, or nothing; an ERR is its status line")
  func statusOnly() {
    #expect(
      CSVWriter.render(Reply(rows: [], status: .ok("order=17 total=28800"), lines: [])) == "order,total\n17,28800\n")
    #expect(CSVWriter.render(Reply(rows: [], status: .ok("PONG"), lines: ["OK PONG"])).isEmpty)
    let error = Reply(rows: [], status: .error(.notFound, "no"), lines: ["ERR NOTFOUND no"])
    #expect(CSVWriter.render(error) == "ERR NOTFOUND no\n")
  }
}

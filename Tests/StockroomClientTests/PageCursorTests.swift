import StockroomProtocol
import Testing

@testable import StockroomClient

@Suite(":next and :prev ask for the page beside the last paged list", .timeLimit(.minutes(30)))
struct PageCursorTests {
  private static func reply(_ status: String) -> Reply {
    var reader = ReplyReader()
    guard case .reply(let reply)? = reader.feed(status) else { preconditionFailure("not a reply: \(status)") }
    return reply
  }

  @Test("the page option is replaced, or added; other words keep their quotes")
  func pagesBeside() throws {
    let first = try #require(PageCursor(line: "LIST dishes size=5", reply: Self.reply("OK total=12 page=1 pages=3")))
    #expect(first.line(moving: 1) == .success("LIST dishes size=5 page=2"))
    #expect(first.line(moving: -1) == .failure(.init(description: "already on the first page (1 of 3)")))
    let last = try #require(
      PageCursor(line: #"DIARY LIST page=3 "size=2""#, reply: Self.reply("OK total=6 page=3 pages=3")))
    #expect(last.line(moving: -1) == .success(#"DIARY LIST "size=2" page=2"#))
    #expect(last.line(moving: 1) == .failure(.init(description: "already on the last page (3 of 3)")))
  }

  @Test("a reply that is no page of a list leaves no cursor")
  func notAPage() {
    #expect(PageCursor(line: "STOCK banana", reply: Self.reply("OK 1 item")) == nil)
    #expect(
      PageCursor(line: "LIST dishes page=9", reply: Self.reply("ERR INVALID page 9 is past the last page")) == nil)
  }
}

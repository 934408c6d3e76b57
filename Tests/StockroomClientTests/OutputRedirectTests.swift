import StockroomClient
import Testing

@Suite("| and > split a REPL line at the first mark outside quotes", .timeLimit(.minutes(30)))
struct OutputRedirectTests {
  @Test("a pipe, a file, an added-to file; spaces around the mark are not part of either side")
  func targets() throws {
    #expect(
      try OutputRedirect.split("LIST dishes | grep 찌개") == .init(command: "LIST dishes", target: .pipe("grep 찌개")))
    #expect(
      try OutputRedirect.split("STOCK>stock.txt") == .init(command: "STOCK", target: .file("stock.txt", append: false)))
    #expect(
      try OutputRedirect.split("STOCK >> log.txt") == .init(command: "STOCK", target: .file("log.txt", append: true)))
    // After the first mark the rest is the shell's, marks and all.
    #expect(
      try OutputRedirect.split("LIST orders | sort | head -3 > top.txt")
        == .init(command: "LIST orders", target: .pipe("sort | head -3 > top.txt")))
    #expect(try OutputRedirect.split("STOCK banana") == .init(command: "STOCK banana", target: nil))
  }

  @Test("| and > inside double quotes, escaped quotes too, stay in the argument")
  func quotedMarksStay() throws {
    #expect(try OutputRedirect.split(#"DIARY NEW "a | b > c""#).target == nil)
    #expect(
      try OutputRedirect.split(#"DIARY NEW "say \"|\" here" | cat"#)
        == .init(command: #"DIARY NEW "say \"|\" here""#, target: .pipe("cat")))
  }

  @Test("nothing before or after the mark is refused with what to write instead")
  func emptySides() {
    #expect(throws: OutputRedirect.Invalid.self) { try OutputRedirect.split("STOCK |") }
    #expect(throws: OutputRedirect.Invalid.self) { try OutputRedirect.split("STOCK >>  ") }
    #expect(throws: OutputRedirect.Invalid.self) { try OutputRedirect.split("| grep x") }
    #expect(Self.error("STOCK >").contains("give a file name, as in STOCK > stock.txt"))
    #expect(Self.error("STOCK |").contains("give a shell command"))
  }

  private static func error(_ line: String) -> String {
    do {
      _ = try OutputRedirect.split(line)
      return ""
    } catch {
      return error.description
    }
  }
}

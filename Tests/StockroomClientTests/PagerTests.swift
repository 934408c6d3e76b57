import Testing

@testable import StockroomClient

@Suite("When a reply is taller than the screen", .timeLimit(.minutes(30)))
struct PagerTests {
  @Test("lines are counted as the terminal shows them: one kept for the prompt, long ones wrapped, colour free")
  func height() {
    let nine = String(repeating: "row\n", count: 9)
    #expect(!Pager.isTaller(nine, rows: 10, columns: 80))
    #expect(Pager.isTaller(nine + "row\n", rows: 10, columns: 80))
    // 8 lines of which one wraps into three: 10 on screen.
    let wrapped = String(repeating: "row\n", count: 7) + String(repeating: "x", count: 161) + "\n"
    #expect(Pager.isTaller(wrapped, rows: 10, columns: 80))
    // Korean is two cells a character: 41 of them are 82 cells, two lines at 80 columns.
    #expect(
      Pager.isTaller(
        String(repeating: "row\n", count: 8) + String(repeating: "딸", count: 41) + "\n", rows: 10, columns: 80))
    // Colour sequences take no room: 80 visible cells are one line.
    let coloured = "\u{1B}[32m" + String(repeating: "x", count: 80) + "\u{1B}[0m\n"
    #expect(!Pager.isTaller(String(repeating: "row\n", count: 8) + coloured, rows: 10, columns: 80))
    // Not a terminal: no size, no paging.
    #expect(!Pager.isTaller(nine + nine, rows: 0, columns: 0))
  }
}

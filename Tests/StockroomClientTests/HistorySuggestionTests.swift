import Testing

@testable import StockroomClient

@Suite("Suggestions and prefix search read history newest first and never offer a secret", .timeLimit(.minutes(30)))
struct HistorySuggestionTests {
  private let history = ["STOCK mango", "STOCK kiwi mango", "LOGIN alice hunter22", "PING 김치찌개"]

  @Test("the rest of the newest line that starts with the typed text, by Unicode scalars")
  func suggestion() {
    #expect(Autosuggestion.rest(of: "STOCK", history: history) == " kiwi mango")
    #expect(Autosuggestion.rest(of: "STOCK m", history: history) == "ango")
    #expect(Autosuggestion.rest(of: "PING 김치", history: history) == "찌개")
    #expect(Autosuggestion.rest(of: "STOCK mango", history: history) == nil)
    #expect(Autosuggestion.rest(of: "", history: history) == nil)
    #expect(Autosuggestion.rest(of: "stock", history: history) == nil)
  }

  @Test("a line with a password is passed over, for the older line behind it")
  func secretPassedOver() {
    #expect(Autosuggestion.rest(of: "LOG", history: ["LOGOUT"] + history) == "OUT")
    #expect(Autosuggestion.rest(of: "LOGIN", history: history) == nil)
    var search = PrefixSearch(typed: "LOG", history: ["LOGOUT"] + history)
    #expect(steps(&search, [.older, .older]) == ["LOGOUT", nil])
  }

  private enum Step { case older, newer }

  /// The line shown after each step, nil for a step that found nothing to move to.
  private func steps(_ search: inout PrefixSearch, _ steps: [Step]) -> [String?] {
    steps.map { step in
      let moved = step == .older ? search.older() : search.newer()
      return moved ? search.shown : nil
    }
  }

  @Test("Up walks matches newest first, each once; Down comes back to what was typed")
  func prefixSearch() {
    var search = PrefixSearch(typed: "STOCK", history: history + ["STOCK mango", "PING x"])
    #expect(search.shown == "STOCK")
    let shown = steps(&search, [.newer, .older, .older, .older, .newer, .newer])
    #expect(shown == [nil, "STOCK mango", "STOCK kiwi mango", nil, "STOCK mango", "STOCK"])
    var all = PrefixSearch(typed: "", history: ["PING a", "PING b"])
    #expect(steps(&all, [.older, .older, .older]) == ["PING b", "PING a", nil])
  }

  @Test("the suggestion is drawn on the cursor's row only, cut to leave the right prompt's cells")
  func overlayFits() {
    let overlay = LineOverlay(columns: 20, prompt: "> ")
    #expect(overlay.suggestion("CK kiwi", after: "STO") == "\u{1B}[2mCK kiwi\u{1B}[0m\u{1B}[7D")
    // 2 + 5 cells used, 2 kept: 11 left, so 12 cells are cut to ten and an ellipsis.
    #expect(overlay.suggestion(" 123456789012", after: "STOCK") == "\u{1B}[2m 123456789…\u{1B}[0m\u{1B}[11D")
    #expect(overlay.suggestion(" x", after: "PING 12345678901") == "")
    // A wide character counts two cells.
    #expect(overlay.suggestion("찌개", after: "김치") == "\u{1B}[2m찌개\u{1B}[0m\u{1B}[4D")
  }
}

import Foundation
import Testing

/// The argument hint while a word is half-typed, and without colour, in a real terminal.
@Suite("Hints in the middle of a word, and labelled when colour is off", .timeLimit(.minutes(30)))
struct HintTerminalTests {
  @Test("ORDER 김치찌개 k hints what comes after the word being typed")
  func hintInsideAWord() throws {
    try withTerminal { server, terminal in
      try terminal.start(["-p", "\(server.port)"])
      try terminal.waitFor(text: ">")
      try terminal.type("ORDER 김치찌개 k")
      try terminal.waitFor("the rest of ORDER's usage beside the half-typed k") { screen in
        let last = TerminalSession.lines(screen).last ?? ""
        return last.contains("> ORDER 김치찌개 k ") && last.hasSuffix("[n] [<item> [n] ...] [key=<text>]")
      }
    }
  }

  @Test("DIARY E hints the subcommand it can only become, EDIT, with what EDIT takes")
  func hintInsideASubcommand() throws {
    try withTerminal { server, terminal in
      try terminal.start(["-p", "\(server.port)"])
      try terminal.waitFor(text: ">")
      try terminal.type("DIARY E")
      try terminal.waitFor("EDIT's usage beside the half-typed E") { screen in
        let last = TerminalSession.lines(screen).last ?? ""
        return last.contains("> DIARY E ") && last.contains("EDIT <id>")
      }
    }
  }

  @Test("LIST dishs hints nothing: no hint goes on from a word already marked wrong")
  func noHintAfterAWrongWord() throws {
    try withTerminal { server, terminal in
      try terminal.start(["-p", "\(server.port)"])
      try terminal.waitFor(text: ">")
      try terminal.type("LIST dishes ")
      try terminal.waitFor("LIST's next argument hinted after a category it has") { screen in
        TerminalSession.lines(screen).last?.contains("[section]") == true
      }
      // The same line with the category misspelt: marked wrong (drawn after the hint, so the
      // hint is final by then), and nothing hinted to type after it.
      try terminal.send("BSpace", "BSpace", "BSpace")
      try terminal.type("s ")
      let screen = try terminal.waitForStyled("dishs marked wrong and no hint beside it") { screen in
        let last = TerminalSession.lines(screen).last ?? ""
        return last.contains("\u{1B}[31mdishs") && !last.contains("[section]")
      }
      #expect(!screen.contains("[page="), "\(screen)")
    }
  }

  @Test("after Ctrl-L, keys that change a cut-off hint, and Enter, push no copy of the line into scrollback")
  func noCopiesInScrollbackAfterCtrlL() throws {
    try withTerminal { server, terminal in
      try terminal.start(["-p", "\(server.port)"], width: 60, rows: 20)
      try terminal.waitFor(text: ">")
      try terminal.send("C-l")
      try terminal.waitFor("the prompt alone on the top row") { screen in
        let lines = TerminalSession.lines(screen)
        return lines.count == 1 && lines[0].hasPrefix("stockroom ")
      }
      let before = try terminal.pane("#{history_size}")
      // Each key changes the hint, which is cut to fit 60 columns.
      try terminal.type("ORDER kiwi 2 banana ")
      try terminal.waitFor("the line with its cut hint on the top row") { screen in
        let first = TerminalSession.lines(screen).first ?? ""
        return first.contains("> ORDER kiwi 2 banana ") && first.hasSuffix("…")
      }
      #expect(try terminal.pane("#{history_size}") == before, "each key left a copy of the line in scrollback")
      try terminal.send("Enter")
      try terminal.waitForPrompt(after: "OK order=1")
      #expect(try terminal.pane("#{history_size}") == before, "Enter left a copy of the line in scrollback")
    }
  }

  @Test("with NO_COLOR the hint is labelled, so it cannot pass for typed text")
  func plainHintIsLabelled() throws {
    try withTerminal { server, terminal in
      try terminal.start(["-p", "\(server.port)"], environment: ["NO_COLOR": "1"])
      try terminal.waitFor(text: ">")
      try terminal.type("ORDER ")
      let screen = try terminal.waitFor("a labelled hint") { screen in
        TerminalSession.lines(screen).last?.hasSuffix("hint: <item> [n] [<item> [n] ...] [key=<text>]") == true
      }
      #expect(!screen.contains("\u{1B}"), "\(screen)")
      try terminal.send("Enter")
      // Accepting the line leaves no hint, label or not, in scrollback.
      let after = try terminal.waitForPrompt(after: "ERR")
      #expect(!after.contains("hint:"), "\(after)")
    }
  }
}

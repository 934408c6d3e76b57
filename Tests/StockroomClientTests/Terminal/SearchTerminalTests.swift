import Foundation
import Testing

/// Ctrl-R history search in a real terminal (tmux), left the way readline leaves it.
@Suite("Ctrl-R search ends at an arrow key, which then moves", .timeLimit(.minutes(30)))
struct SearchTerminalTests {
  private func found(_ terminal: TerminalSession, _ line: String) throws {
    try terminal.waitFor("the search to find '\(line)'") { screen in
      let lines = TerminalSession.lines(screen)
      return lines.last?.hasPrefix("bck:") == true
        && TerminalSession.withoutHint(lines.dropLast().last)?.hasSuffix("> " + line) == true
    }
  }

  private func left(_ terminal: TerminalSession, reading line: String) throws {
    try terminal.waitFor("the search to end with '\(line)' on the line") { screen in
      let lines = TerminalSession.lines(screen)
      return TerminalSession.withoutHint(lines.last)?.hasSuffix("> " + line) == true
        && !lines.contains { $0.hasPrefix("bck:") }
    }
  }

  @Test("Right and Left after Ctrl-R move the cursor instead of writing [C or [D into the line")
  func arrowsLeaveTheSearch() throws {
    try withTerminal { server, terminal in
      try terminal.start(["-p", "\(server.port)"])
      try terminal.waitFor(text: ">")
      try terminal.type("ORDER 김치찌개 2")
      try terminal.send("Enter")
      try terminal.waitForPrompt(after: "OK order=1")
      try terminal.send("C-r")
      try terminal.type("김치")
      try found(terminal, "ORDER 김치찌개 2")
      try terminal.send("C-r")
      try terminal.send("Right")
      try left(terminal, reading: "ORDER 김치찌개 2")
      // The search is over, so End and Enter are keys of the line again.
      try terminal.send("End")
      try terminal.send("Enter")
      try terminal.waitForPrompt(after: "OK order=2")
      try terminal.send("C-r")
      try terminal.type("김치")
      try found(terminal, "ORDER 김치찌개 2")
      try terminal.send("Left")
      try left(terminal, reading: "ORDER 김치찌개 2")
      try terminal.send("Enter")
      let screen = try terminal.waitForPrompt(after: "OK order=3")
      #expect(!screen.contains("[C") && !screen.contains("[D") && !screen.contains("NOTFOUND"), "\(screen)")
    }
  }

  @Test("Ctrl-Left and Ctrl-Right after Ctrl-R move a word, and Delete deletes, with no [1;5D in the line")
  func wordKeysLeaveTheSearch() throws {
    try withTerminal { server, terminal in
      try terminal.start(["-p", "\(server.port)"])
      try terminal.waitFor(text: ">")
      try terminal.type("PING abcd")
      try terminal.send("Left", "Left", "DC")
      try terminal.send("Enter")
      try terminal.waitForPrompt(after: "OK abd")
      try terminal.send("C-r")
      try terminal.type("bd")
      try found(terminal, "PING abd")
      // The search leaves the cursor on the match, inside abd: Ctrl-Left goes to its start.
      try terminal.send("C-Left")
      try left(terminal, reading: "PING abd")
      try terminal.type("x_")
      try terminal.send("Enter")
      try terminal.waitForPrompt(after: "OK x_abd")
      try terminal.send("C-r")
      try terminal.type("x_")
      try found(terminal, "PING x_abd")
      try terminal.send("C-Right")
      try left(terminal, reading: "PING x_abd")
      try terminal.type("9")
      try terminal.send("Enter")
      let screen = try terminal.waitForPrompt(after: "OK x_abd9")
      #expect(!screen.contains("5D") && !screen.contains("5C") && !screen.contains("3~"), "\(screen)")
    }
  }

  @Test("Down after Ctrl-R ends the search and keeps the line found, also after Up had walked to it")
  func downKeepsTheFoundLine() throws {
    try withTerminal { server, terminal in
      try terminal.start(["-p", "\(server.port)"])
      try terminal.waitFor(text: ">")
      for word in ["one", "two"] {
        try terminal.type("PING \(word)")
        try terminal.send("Enter")
        try terminal.waitForPrompt(after: "OK \(word)")
      }
      try terminal.send("C-r")
      try terminal.type("one")
      try found(terminal, "PING one")
      try terminal.send("Down")
      try left(terminal, reading: "PING one")
      try terminal.send("Enter")
      try terminal.waitForPrompt(after: "OK one")
      // Up walks to PING one, the newest, and Ctrl-R lands on the same line: Down is not the
      // walk's next step, back to the empty line Up started from.
      try terminal.send("Up")
      try terminal.waitFor("Up's walk at PING one") {
        TerminalSession.withoutHint(TerminalSession.lines($0).last)?.hasSuffix("> PING one") == true
      }
      try terminal.send("C-u", "C-r")
      try terminal.type("one")
      try found(terminal, "PING one")
      try terminal.send("Down")
      try left(terminal, reading: "PING one")
      try terminal.send("Enter")
      let screen = try terminal.waitForPrompt(after: "OK one", from: "PING one")
      #expect(TerminalSession.lines(screen).filter { $0 == "OK one" }.count == 3, "\(screen)")
    }
  }
}

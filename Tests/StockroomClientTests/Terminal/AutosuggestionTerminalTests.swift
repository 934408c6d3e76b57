import Foundation
import Testing

/// fish-style suggestions from history and Up as a prefix search, in a real terminal.
@Suite("History suggests the rest of a line as it is typed, and Up searches by what is typed", .timeLimit(.minutes(30)))
struct AutosuggestionTerminalTests {
  /// tmux writes an attribute only where it changes, so a dimmed suggestion reads as the
  /// typed text, `ESC [2m`, then the suggestion.
  private static func dimmed(_ typed: String, _ rest: String) -> String {
    typed + "\u{1B}[2m" + rest
  }

  /// Runs each line and waits for the prompt after its reply.
  private func run(_ terminal: TerminalSession, _ lines: [(line: String, reply: String)]) throws {
    for (line, reply) in lines {
      try terminal.type(line)
      try terminal.send("Enter")
      try terminal.waitForPrompt(after: reply)
    }
  }

  private func lineReads(_ terminal: TerminalSession, _ text: String) throws {
    try terminal.waitFor("the line to read '\(text)'") { screen in
      TerminalSession.withoutHint(TerminalSession.lines(screen).last)?.hasSuffix("> " + text) == true
    }
  }

  /// A history file as libedit writes it: a header, then one line each with spaces as `\040`.
  private func historyFile(_ lines: [String], in folder: String) throws -> String {
    let path = folder + "/history"
    let body = (["_HiStOrY_V2_"] + lines.map { $0.replacingOccurrences(of: " ", with: "\\040") })
    try (body.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test("the newest matching line is shown dimmed after the cursor; Right and Ctrl-F take it, other keys edit")
  func suggestionFromHistory() throws {
    try withTerminal { server, terminal in
      try terminal.start(["-p", "\(server.port)"])
      try terminal.waitFor(text: ">")
      try run(terminal, [("STOCK mango", "OK 1 item"), ("STOCK kiwi mango", "OK 2 items")])
      try terminal.type("STOCK k")
      try terminal.waitForDimmed("the rest of STOCK kiwi mango, dimmed") {
        $0.contains(Self.dimmed("> STOCK k", "iwi mango"))
      }
      // Typing what the suggestion says keeps it; typing something else drops it.
      try terminal.type("i")
      try terminal.waitForDimmed("the suggestion to follow the typing") {
        $0.contains(Self.dimmed("> STOCK ki", "wi mango"))
      }
      try terminal.type("x")
      try terminal.waitFor("the suggestion gone after kix") { screen in
        let last = TerminalSession.lines(screen).last ?? ""
        return TerminalSession.withoutHint(last)?.hasSuffix("> STOCK kix") == true && !last.contains("mango")
      }
      try terminal.send("BSpace")
      try terminal.waitForDimmed("the suggestion back after Backspace") {
        $0.contains(Self.dimmed("> STOCK ki", "wi mango"))
      }
      try terminal.send("Right")
      try terminal.send("Enter")
      try terminal.waitFor("the taken line to run") { $0.components(separatedBy: "OK 2 items").count == 3 }
      // Ctrl-F takes it too, from the newest line that matches.
      try terminal.type("STOCK")
      try terminal.waitForDimmed("a suggestion after STOCK") { $0.contains(Self.dimmed("> STOCK", " kiwi mango")) }
      try terminal.send("C-f")
      try lineReads(terminal, "STOCK kiwi mango")
      try terminal.send("Enter")
      try terminal.waitFor("the line Ctrl-F took to run") { $0.components(separatedBy: "OK 2 items").count == 4 }
    }
  }

  @Test("End and Ctrl-E take the whole suggestion, Alt-F its next word, as in fish")
  func endAndAltFTakeIt() throws {
    try withTerminal { server, terminal in
      try terminal.start(["-p", "\(server.port)"])
      try terminal.waitFor(text: ">")
      try run(terminal, [("STOCK kiwi mango", "OK 2 items")])
      try terminal.type("STOCK")
      try terminal.waitForDimmed("a suggestion after STOCK") { $0.contains(Self.dimmed("> STOCK", " kiwi mango")) }
      // Alt-F: one word typed, the rest still suggested.
      try terminal.send("M-f")
      try terminal.waitForDimmed("kiwi taken, mango still suggested") {
        $0.contains(Self.dimmed("> STOCK kiwi", " mango"))
      }
      try terminal.send("End")
      try terminal.send("Enter")
      try terminal.waitFor("the line End took to run") { $0.components(separatedBy: "OK 2 items").count == 3 }
      try terminal.type("STOCK ki")
      try terminal.waitForDimmed("a suggestion after STOCK ki") { $0.contains(Self.dimmed("> STOCK ki", "wi mango")) }
      try terminal.send("C-e")
      try terminal.send("Enter")
      try terminal.waitFor("the line Ctrl-E took to run") { $0.components(separatedBy: "OK 2 items").count == 4 }
    }
  }

  @Test("Up's prefix search ignores case, as commands do: stock finds STOCK kiwi")
  func upIgnoresCase() throws {
    try withTerminal { server, terminal in
      try terminal.start(["-p", "\(server.port)"])
      try terminal.waitFor(text: ">")
      try run(terminal, [("STOCK kiwi", "OK 1 item"), ("PING x", "OK x")])
      try terminal.type("stock")
      try terminal.send("Up")
      try lineReads(terminal, "STOCK kiwi")
    }
  }

  @Test("Up with text on the line walks the lines that start with it, each once; Down comes back to the text")
  func upSearchesByPrefix() throws {
    try withTerminal { server, terminal in
      try terminal.start(["-p", "\(server.port)"])
      try terminal.waitFor(text: ">")
      try run(
        terminal,
        [
          ("PING three", "OK three"), ("PING one", "OK one"), ("STOCK kiwi", "OK 1 item"), ("PING two", "OK two"),
          ("PING one", "OK one"), ("STOCK mango", "OK 1 item"),
        ])
      try terminal.type("PING")
      // Newest first, PING one once although it came twice, and no STOCK line between.
      for expected in ["PING one", "PING two", "PING three"] {
        try terminal.send("Up")
        try lineReads(terminal, expected)
      }
      try terminal.send("Up")
      for expected in ["PING two", "PING one"] {
        try terminal.send("Down")
        try lineReads(terminal, expected)
      }
      // Back at what was typed, which the newest match is suggested after again.
      try terminal.send("Down")
      try terminal.waitForDimmed("PING as typed, PING one suggested") { $0.contains(Self.dimmed("> PING", " one")) }
      // An edit starts a new search from the line as it now stands: from PING th, the walk
      // that had reached PING one would have gone on to PING two.
      try terminal.send("Up")
      try lineReads(terminal, "PING one")
      try terminal.send("BSpace", "BSpace", "BSpace")
      try terminal.type("th")
      try terminal.send("Up")
      try lineReads(terminal, "PING three")
      try terminal.send("Enter")
      try terminal.waitFor("PING three again") { $0.components(separatedBy: "OK three").count == 3 }
    }
  }

  @Test("a line HistoryPolicy would not keep is never suggested nor found, even from an older history file")
  func secretsAreNeverSuggested() throws {
    let server = try ShopServer()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("suggest-\(getpid())-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let history = try historyFile(["LOGOUT", "LOGIN alice hunter22", "USER ADD bob hunter33"], in: folder.path)
    try withTerminal(server, historyFile: history) { _, terminal in
      terminal.secrets = ["hunter22", "hunter33"]
      try terminal.start(["-p", "\(server.port)"])
      try terminal.waitFor(text: ">")
      // The newest line starting with LOG holds a password; the one before it is offered.
      try terminal.type("LOG")
      try terminal.waitForDimmed("LOGOUT suggested") { $0.contains(Self.dimmed("> LOG", "OUT")) }
      #expect(!(try terminal.screen()).contains("hunter"))
      try terminal.send("C-u")
      try terminal.type("LOG")
      try terminal.send("Up")
      try lineReads(terminal, "LOGOUT")
      try terminal.send("Up")
      try terminal.send("C-u")
      try terminal.type("US")
      // Nothing else starts with US: the usage hint stands where a suggestion would give way.
      try terminal.type("ER ")
      try terminal.waitFor(text: "ADD|")
      #expect(!(try terminal.screen()).contains("hunter"))
    }
  }

  @Test("with NO_COLOR nothing is suggested, so Right adds nothing unseen; Up still searches")
  func noSuggestionWithoutColour() throws {
    try withTerminal { server, terminal in
      try terminal.start(["-p", "\(server.port)"], environment: ["NO_COLOR": "1"])
      try terminal.waitFor(text: ">")
      try run(terminal, [("STOCK kiwi mango", "OK 2 items"), ("PING x", "OK x")])
      try terminal.type("STOCK k")
      // The labelled usage hint is drawn where a suggestion would have stood.
      let screen = try terminal.waitFor(text: "hint: ")
      #expect(!(TerminalSession.lines(screen).last ?? "").contains("mango"), "\(screen)")
      try terminal.send("Right")
      try terminal.type("X")
      try lineReads(terminal, "STOCK kX")
      try terminal.send("BSpace")
      // Past PING x, the newer line, to the one that starts with STOCK k.
      try terminal.send("Up")
      try lineReads(terminal, "STOCK kiwi mango")
    }
  }

  @Test("an event printed above the line keeps the suggestion, and Right still takes it")
  func eventKeepsSuggestion() throws {
    try withTerminal { server, terminal in
      try terminal.start(["-p", "\(server.port)"])
      try terminal.waitFor(text: ">")
      try run(terminal, [("STOCK banana kiwi", "OK 2 items"), ("WATCH banana", "OK watching=banana")])
      try terminal.type("STOCK b")
      try terminal.waitForDimmed("a suggestion") { $0.contains(Self.dimmed("> STOCK b", "anana kiwi")) }
      let other = try ClientProcess.run(["-p", "\(server.port)", "ORDER", "banana_juice"])
      #expect(other.status == 0, "\(other.error)")
      try terminal.waitForDimmed("the event above, the suggestion still after the line") { screen in
        screen.contains("! stock banana → 8") && screen.contains(Self.dimmed("> STOCK b", "anana kiwi"))
      }
      try terminal.send("Right")
      try terminal.send("Enter")
      try terminal.waitForPrompt(after: "OK 2 items")
      #expect(try terminal.screen().contains("banana  fruit      8"))
    }
  }
}

import Foundation
import StockroomClient
import Testing

/// The line coloured as it is typed, in a real terminal: what tmux holds, and what it was sent.
@Suite("The REPL colours the line as it is typed, and each key costs few bytes", .timeLimit(.minutes(30)))
struct HighlightTerminalTests {
  /// The prompt's line of a styled screen.
  private static func promptLine(_ styled: String) -> String {
    styled.split(separator: "\n").last { $0.contains("> ") }.map(String.init) ?? ""
  }

  @Test("the command word valid or not as typed, then items known and unknown, numbers and options; events keep it")
  func coloursAsTyped() throws {
    try withTerminal { server, terminal in
      // Logged in, so the keyed ORDER below reaches the item check (a guest's is refused first).
      try server.register("alice")
      try terminal.start(
        ["-p", "\(server.port)", "-u", "alice"], environment: ["STOCKROOM_PASSWORD": ShopServer.password])
      try terminal.waitFor(text: ">")
      try terminal.type("WATCH kiwi")
      try terminal.send("Enter")
      try terminal.waitForPrompt(after: "OK watching=kiwi")
      try terminal.type("ORDX")
      try terminal.waitForStyled("ORDX marked unknown") { Self.promptLine($0).contains("\u{1B}[31mORDX") }
      try terminal.send("BSpace")
      try terminal.waitForStyled("ORD plain again, since ORDER starts with it") { screen in
        let line = Self.promptLine(screen)
        return line.contains("ORD") && !line.contains("ORDX") && !line.contains("[31m")
      }
      try terminal.type("ER kiwi 2 xq key=a")
      let marks = ["\u{1B}[32mORDER", "\u{1B}[36mkiwi", "\u{1B}[33m2", "\u{1B}[31mxq", "\u{1B}[34mkey="]
      try terminal.waitForStyled("each word in its colour") { screen in
        let line = Self.promptLine(screen)
        return marks.allSatisfy { line.contains($0) }
      }
      let other = try ClientProcess.run(["-p", "\(server.port)", "ORDER", "kiwi"])
      #expect(other.status == 0, "\(other.error)")
      try terminal.waitForStyled("the event above, the line still coloured") { screen in
        screen.contains("! stock kiwi → 9") && marks.allSatisfy { Self.promptLine(screen).contains($0) }
      }
      // The editor's line is what was typed: the unknown item goes to the server as it stands.
      try terminal.send("Enter")
      let screen = try terminal.waitForPrompt(after: "ERR")
      // The server's answer names it (the typed line above it contains xq anyway).
      let answer = screen.split(separator: "\n").last { $0.contains("ERR") }
      #expect(answer?.contains("xq") == true, "\(screen)")
    }
  }

  @Test("NO_COLOR and highlight = off leave the line as typed, with the hint still drawn")
  func offWithoutColour() throws {
    for colourOff in [true, false] {
      try withTerminal { server, terminal in
        if !colourOff {
          let folder = terminal.folder.appendingPathComponent(".config/stockroom")
          try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
          try "highlight = off\n".write(
            to: folder.appendingPathComponent("config"), atomically: true, encoding: .utf8)
        }
        try terminal.start(["-p", "\(server.port)"], environment: colourOff ? ["NO_COLOR": "1"] : [:])
        try terminal.waitFor(text: ">")
        try terminal.type("ORDER kiwi 2 xq ")
        // The hint is redrawn after each key, so it shows before the last keys have arrived:
        // wait for the whole line too, which has then had its chance to be coloured.
        let screen = try terminal.waitForStyled("the hint after the whole line") { screen in
          let line = Self.promptLine(screen)
          return line.contains("<item> [n]") && line.contains("xq")
        }
        let line = Self.promptLine(screen)
        #expect(!["[31m", "[32m", "[33m", "[36m"].contains { line.contains($0) }, "\(line.debugDescription)")
        #expect(line.contains("ORDER kiwi 2 xq"), "\(line.debugDescription)")
      }
    }
  }

  @Test("every argument of a known kind is checked: SHOW, LIST's category and section, a diary id")
  func everyKnownKindChecked() throws {
    try withTerminal { server, terminal in
      try terminal.start(["-p", "\(server.port)"])
      try terminal.waitFor(text: ">")
      // A command run first, so the names are fetched before the lines are coloured.
      try terminal.type("PING ready")
      try terminal.send("Enter")
      try terminal.waitForPrompt(after: "OK ready")
      for (line, unknown, known) in [
        ("SHOW xyz ", "xyz", nil), ("SHOW 김치찌게 ", "김치찌게", nil), ("LIST dishs ", "dishs", nil),
        ("LIST dishes soupp ", "soupp", "dishes"), ("DIARY SHOW abc ", "abc", nil), ("LIST dish soup ", nil, "soup"),
      ] as [(String, String?, String?)] {
        try terminal.type(line)
        try terminal.waitForStyled("\(line) coloured") { screen in
          let prompt = Self.promptLine(screen)
          return (unknown.map { prompt.contains("\u{1B}[31m" + $0) } ?? true)
            && (known.map { prompt.contains("\u{1B}[36m" + $0) } ?? true)
        }
        try terminal.send("C-u")
      }
    }
  }

  @Test("each key writes a bounded number of bytes to the terminal, counted from what tmux was sent")
  func bytesPerKey() throws {
    try withTerminal { server, terminal in
      try terminal.start(["-p", "\(server.port)"])
      let prompt = "stockroom 127.0.0.1:\(server.port)> "
      try terminal.waitFor(text: "127.0.0.1:\(server.port)>")
      // The command word first, as one paste, so that every key after it is drawn over and
      // ends with the overlay's move back to the cursor: CR, then to the cursor's column.
      try terminal.type("ORDER ")
      try terminal.waitForStyled("ORDER coloured") { Self.promptLine($0).contains("\u{1B}[32mORDER") }
      let log = terminal.folder.appendingPathComponent("output.log").path
      try terminal.logOutput(to: log)
      var typed = "ORDER "
      var counts: [Int] = []
      var size = 0
      for character in "kiwi 2 김치찌개 3 strawberry_juice key=abc" {
        typed.append(character)
        try terminal.type(String(character))
        let column = DisplayWidth.of(prompt + typed)
        let end = Array("\r\u{1B}[\(column)C".utf8)
        let bytes = try terminal.waitForLog(at: log, "the redraw after '\(character)'") { bytes in
          bytes.count > size && bytes.suffix(end.count).elementsEqual(end)
        }
        counts.append(bytes.count - size)
        size = bytes.count
      }
      // libedit's own redraw (the changed cells, the hint when it changes) and the coloured
      // line again: a few hundred bytes at most for this 50-cell line, however long the
      // session has run.
      let most = try #require(counts.max())
      #expect(most <= 400, "bytes per key: \(counts)")
      #expect(counts.reduce(0, +) / counts.count <= 200, "bytes per key: \(counts)")
    }
  }
}

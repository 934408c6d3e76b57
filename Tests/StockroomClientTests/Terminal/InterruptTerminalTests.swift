import Foundation
import Testing

/// Ctrl-C on a line longer than the terminal is wide (tmux).
@Suite("Ctrl-C on a wrapped line leaves it whole and gives a fresh prompt below", .timeLimit(.minutes(30)))
struct InterruptTerminalTests {
  @Test("a line of two rows, Ctrl-C: both rows stay, ^C ends the second, the prompt comes after")
  func wrappedLine() throws {
    try withTerminal { server, terminal in
      try terminal.start(["-p", "\(server.port)"], width: 60, rows: 20)
      try terminal.waitForPrompt(after: "Ctrl-D leaves")
      let typed = "PING " + (1...12).map { "word\($0)" }.joined(separator: " ")
      try terminal.type(typed)
      try terminal.waitFor(text: "word12")
      try terminal.send("C-c")
      let screen = try terminal.waitFor("^C and a fresh prompt below it") { screen in
        let lines = TerminalSession.lines(screen)
        guard let mark = lines.lastIndex(where: { $0.hasSuffix("^C") }) else { return false }
        return mark == lines.count - 2 && lines.last?.hasSuffix("127.0.0.1:\(server.port)>") == true
      }
      let lines = TerminalSession.lines(screen)
      // Found by the wait above; a guard rather than #require, which inside this closure
      // crashes Swift 6.3.1's region analysis (SendNonSendable).
      guard let mark = lines.lastIndex(where: { $0.hasSuffix("^C") }) else { return }
      #expect(lines[mark - 1].contains("> PING word1 "), "the first row was drawn over:\n\(screen)")
      #expect(lines[mark].contains("word12"), "\(screen)")
    }
  }
}

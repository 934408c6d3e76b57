import Foundation
import Testing

/// libedit's own ~/.editrc, honoured by the REPL (tmux): HOME is the terminal's folder.
@Suite("~/.editrc is read: macros and vi mode, with the client's own keys kept", .timeLimit(.minutes(30)))
struct EditrcTerminalTests {
  private func writeEditrc(_ text: String, in terminal: TerminalSession) throws {
    try text.write(to: terminal.folder.appendingPathComponent(".editrc"), atomically: true, encoding: .utf8)
  }

  @Test("bind -s in ~/.editrc: the key types its text")
  func macro() throws {
    try withTerminal { server, terminal in
      try writeEditrc("bind -s ^G 'PING editrc'\n", in: terminal)
      try terminal.start(["-p", "\(server.port)"])
      try terminal.waitFor(text: ">")
      try terminal.send("C-g")
      try terminal.waitFor(text: "> PING editrc")
      try terminal.send("Enter")
      try terminal.waitForPrompt(after: "OK editrc")
    }
  }

  @Test("bind -v in ~/.editrc: Escape then x deletes as vi does, and Tab and Enter still work")
  func viMode() throws {
    try withTerminal { server, terminal in
      try writeEditrc("bind -v\n", in: terminal)
      try terminal.start(["-p", "\(server.port)"])
      try terminal.waitFor(text: ">")
      try terminal.type("PIN")
      try terminal.send("Tab")
      // Completion ends the word with a space.
      try terminal.waitFor(text: "> PING ")
      try terminal.type("abcd")
      try terminal.send("Escape")
      try terminal.type("x")
      try terminal.waitFor("vi's x to delete the d") { screen in
        TerminalSession.withoutHint(TerminalSession.lines(screen).last)?.hasSuffix("> PING abc") == true
      }
      try terminal.send("Enter")
      try terminal.waitForPrompt(after: "OK abc")
    }
  }

  @Test(
    "bind -v: after Escape, k and Ctrl-C the next line starts in insert mode, so STOCK stays STOCK and Ctrl-D leaves")
  func viModeAfterCtrlC() throws {
    try withTerminal { server, terminal in
      try writeEditrc("bind -v\n", in: terminal)
      try terminal.start(["-p", "\(server.port)"])
      try terminal.waitFor(text: ">")
      try terminal.type("PING one")
      try terminal.send("Enter")
      try terminal.waitForPrompt(after: "OK one")
      try terminal.send("Escape")
      try terminal.type("k")
      try terminal.waitFor("the last line back") { screen in
        TerminalSession.withoutHint(TerminalSession.lines(screen).last)?.hasSuffix("> PING one") == true
      }
      try terminal.send("C-c")
      try terminal.waitFor("an empty prompt after Ctrl-C") { screen in
        TerminalSession.lines(screen).last?.hasSuffix(">") == true
      }
      try terminal.type("STOCK")
      try terminal.waitFor("STOCK typed whole") { screen in
        TerminalSession.withoutHint(TerminalSession.lines(screen).last)?.hasSuffix("> STOCK") == true
      }
      try terminal.send("C-u")
      try terminal.send("Escape")
      try terminal.send("C-c")
      try terminal.send("C-d")
      try terminal.waitFor(text: "[stockroom exited with status 0]")
    }
  }
}

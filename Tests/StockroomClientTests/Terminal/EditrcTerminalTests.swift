import Foundation
import Testing

/// libedit's own ~/.editrc, honoured by the REPL (tmux): HOME is the terminal's folder.
@Suite("~/.editrc is read: macros and vi mode, with the client's own keys kept")
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
}

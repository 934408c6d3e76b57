import Foundation
import Testing

/// The config file's REPL settings in a real session (tmux).
@Suite("The config file sets the prompt, timing and json, and runs startup lines", .timeLimit(.minutes(30)))
struct ConfigStartupTerminalTests {
  @Test("prompt = FORMAT draws the prompt; timing = on times the first command; startup lines run before it")
  func configured() throws {
    try withTerminal { server, terminal in
      let folder = terminal.folder.appendingPathComponent(".config/stockroom")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let config = """
        prompt = "shop %h:%p %s>> "
        timing = on
        startup = PING from-startup
        startup = :json on
        """
      try config.write(to: folder.appendingPathComponent("config"), atomically: true, encoding: .utf8)
      try terminal.start(["-p", "\(server.port)"])
      // Each startup line is echoed after the prompt before it runs, so the prompt's text shows
      // before the startup replies do: wait for the prompt on the last line, after them.
      let first = try terminal.waitFor("the prompt after the startup lines") { screen in
        TerminalSession.lines(screen).last?.hasPrefix("shop 127.0.0.1:\(server.port) >>") == true
          && screen.contains("json output on")
      }
      #expect(first.contains("OK from-startup"), "the startup PING did not run:\n\(first)")
      #expect(first.contains("json output on"), "\(first)")
      try terminal.type("PING typed")
      try terminal.send("Enter")
      // The startup PING was timed too, so "Time:" is on screen before this command runs.
      let screen = try terminal.waitForPrompt(after: "Time:", from: "PING typed")
      let lines = TerminalSession.lines(screen)
      let typed = try #require(lines.lastIndex { $0.hasSuffix(">> PING typed") }, "\(screen)")
      let reply = lines[(typed + 1)...]
      #expect(reply.contains { $0.contains(#""message": "typed""#) || $0.contains(#""message":"typed""#) }, "\(screen)")
      #expect(reply.contains { $0.hasPrefix("Time: ") }, "the typed command was not timed:\n\(screen)")
    }
  }
}

import Foundation
import Testing

/// The config file's REPL settings in a real session (tmux).
@Suite("The config file sets the prompt, timing and json, and runs startup lines")
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
      let first = try terminal.waitFor(text: "shop 127.0.0.1:\(server.port) >>")
      #expect(first.contains("OK from-startup"), "the startup PING did not run:\n\(first)")
      #expect(first.contains("json output on"), "\(first)")
      try terminal.type("PING typed")
      try terminal.send("Enter")
      let screen = try terminal.waitForPrompt(after: "Time:")
      #expect(screen.contains(#""message": "typed""#) || screen.contains(#""message":"typed""#), "\(screen)")
    }
  }
}

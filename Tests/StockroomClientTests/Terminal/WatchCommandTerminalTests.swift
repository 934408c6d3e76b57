import Foundation
import Testing

/// `:watch SECONDS COMMAND` (tmux): the reply redrawn in place while the stock moves.
@Suite(":watch repeats a command in place until q or Ctrl-C")
struct WatchCommandTerminalTests {
  @Test(":watch 0.3 STOCK banana follows orders from elsewhere; q and Ctrl-C stop it and the prompt works")
  func followsTheStock() throws {
    try withTerminal { server, terminal in
      try terminal.start(["-p", "\(server.port)"])
      try terminal.waitFor(text: ">")
      try terminal.type(":watch STOCK banana")
      try terminal.send("Enter")
      #expect(try terminal.waitForPrompt(after: "usage: :watch").contains("as in :watch 2 STOCK banana"))
      try terminal.type(":watch 0.3 STOCK banana")
      try terminal.send("Enter")
      try terminal.waitFor(text: "Every 0.3 s: STOCK banana")
      let orders = try ClientProcess.run(["-p", "\(server.port)", "-e"], input: "ORDER banana 3\n")
      #expect(orders.status == 0, "\(orders.error)")
      let moved = try terminal.waitFor("banana at 7, redrawn in place") { screen in
        screen.contains("Every 0.3 s")
          && TerminalSession.lines(screen).contains { $0.hasPrefix("banana") && $0.contains(" 7 ") }
      }
      // In place: one header on the screen, not one per round scrolling by.
      #expect(moved.components(separatedBy: "Every 0.3 s").count == 2, "\(moved)")
      try terminal.type("q")
      try terminal.waitFor(text: "127.0.0.1:\(server.port)>")
      try terminal.type("PING after-q")
      try terminal.send("Enter")
      #expect(try terminal.waitForPrompt(after: "OK after-q").contains("PING after-q"), "typing echoes again")

      try terminal.type(":watch 1 PING tick")
      try terminal.send("Enter")
      try terminal.waitFor(text: "OK tick")
      try terminal.send("C-c")
      try terminal.type("PING after-ctrl-c")
      try terminal.send("Enter")
      #expect(try terminal.waitForPrompt(after: "OK after-ctrl-c").contains("PING after-ctrl-c"))
    }
  }
}

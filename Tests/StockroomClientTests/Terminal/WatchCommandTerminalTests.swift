import Foundation
import Testing

/// `:watch SECONDS COMMAND` (tmux): the reply redrawn in place while the stock moves.
@Suite(":watch repeats a command in place until q or Ctrl-C", .timeLimit(.minutes(30)))
struct WatchCommandTerminalTests {
  @Test(":watch 0.3 STOCK banana follows orders from elsewhere; q and Ctrl-C stop it and the prompt works")
  func followsTheStock() throws {
    try withTerminal { server, terminal in
      try terminal.start(["-p", "\(server.port)"])
      try terminal.waitFor(text: ">")
      // Each mistake gets its own sentence.
      for (line, said) in [
        (
          ":watch STOCK banana", ":watch takes the seconds first, and 'STOCK' is no number; as in :watch 2 STOCK banana"
        ),
        (":watch 0 STOCK", ":watch needs more than 0 seconds between rounds, not '0'"),
        (":watch 2", "nothing to repeat after 2: give a server command"),
        (":watch 2 :timing on", "':timing' is answered here, not by the server"),
      ] {
        try terminal.type(line)
        try terminal.send("Enter")
        #expect(try terminal.waitForPrompt(after: said, from: line).contains(said))
      }
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

  @Test(":watch 0.3 STOCK | grep banana: each round goes through the command, drawn in place")
  func throughAPipe() throws {
    try withTerminal { server, terminal in
      try terminal.start(["-p", "\(server.port)"])
      try terminal.waitFor(text: ">")
      try terminal.type(":watch 0.3 STOCK | grep '^banana' | sed 's/^/seen: /'")
      try terminal.send("Enter")
      try terminal.waitFor(text: "Every 0.3 s: STOCK | grep '^banana'")
      let orders = try ClientProcess.run(["-p", "\(server.port)", "-e"], input: "ORDER banana 3\n")
      #expect(orders.status == 0, "\(orders.error)")
      let moved = try terminal.waitFor("banana at 7 through grep and sed") { screen in
        TerminalSession.lines(screen).contains { $0.hasPrefix("seen: banana") && $0.contains(" 7 ") }
      }
      // Only what the command printed: no other item, and one header, redrawn in place.
      #expect(!moved.contains("kiwi") && !moved.contains("Kiwi"), "\(moved)")
      #expect(moved.components(separatedBy: "Every 0.3 s").count == 2, "\(moved)")
      try terminal.type("q")
      try terminal.waitFor(text: "127.0.0.1:\(server.port)>")
      try terminal.type("PING after-q")
      try terminal.send("Enter")
      #expect(try terminal.waitForPrompt(after: "OK after-q").contains("PING after-q"))
    }
  }

  /// The level the server reports for `item`, asked by a one-shot client.
  private static func level(of item: String, port: UInt16) throws -> String? {
    let run = try ClientProcess.run(["-p", "\(port)", "STOCK", item])
    return run.lines.first { $0.hasPrefix("* \(item) ") }?.split(separator: " ")
      .first { $0.hasPrefix("stock=") }.map { String($0.dropFirst("stock=".count)) }
  }

  @Test(":watch ORDER asks first (no sends nothing); after yes it stops at the first ERR, SHORTAGE here")
  func writesAreAskedAndErrorsStop() throws {
    try withTerminal { server, terminal in
      try terminal.start(["-p", "\(server.port)"])
      try terminal.waitFor(text: "127.0.0.1:\(server.port)>")
      let start = try #require(try Self.level(of: "banana", port: server.port).flatMap { Int($0) })
      try terminal.type(":watch 0.2 ORDER banana 4")
      try terminal.send("Enter")
      try terminal.waitFor(text: "[y/N]")
      try terminal.type("n")
      try terminal.waitForPrompt(after: "not repeated; nothing sent")
      #expect(try Self.level(of: "banana", port: server.port) == String(start))
      try terminal.type(":watch 0.2 ORDER banana 4")
      try terminal.send("Enter")
      try terminal.waitFor(text: "[y/N]")
      try terminal.type("y")
      let stopped = try terminal.waitForPrompt(after: "stopped: the command failed")
      #expect(stopped.contains("ERR SHORTAGE"), "\(stopped)")
      // As many orders as the stock held, and not one retry after the refusal.
      #expect(try Self.level(of: "banana", port: server.port) == String(start % 4))
    }
  }

  @Test(":watch of a reply taller than the window keeps its title on the top line")
  func titleStaysOnScreen() throws {
    try withTerminal { server, terminal in
      try terminal.start(["-p", "\(server.port)"], rows: 16)
      try terminal.waitFor(text: "127.0.0.1:\(server.port)>")
      try terminal.type(":watch 1 LIST dishes")
      try terminal.send("Enter")
      let screen = try terminal.waitFor(text: "more lines; a taller window shows them")
      #expect(screen.hasPrefix("Every 1 s: LIST dishes"), "\(screen)")
      try terminal.type("q")
      try terminal.waitFor(text: "127.0.0.1:\(server.port)>")
    }
  }
}

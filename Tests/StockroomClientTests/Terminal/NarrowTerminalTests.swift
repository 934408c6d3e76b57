import Foundation
import Testing

/// Replies in a 60-column terminal (tmux): the client breaks lines at spaces itself, so the
/// terminal never has to break one, and never inside a word.
@Suite("At 60 columns tables and error lines wrap at spaces, within the width", .timeLimit(.minutes(30)))
struct NarrowTerminalTests {
  /// Tall enough for a whole page of exhibits even if the terminal broke every row in two.
  private func startREPL(_ server: ShopServer) throws -> TerminalSession {
    let terminal = try TerminalSession()
    try terminal.start(["-p", "\(server.port)"], width: 60, rows: 120)
    try terminal.waitFor(text: ">")
    return terminal
  }

  @Test("LIST exhibits at 60 columns: no row is wider than the terminal")
  func tableFits() throws {
    let server = try ShopServer()
    let terminal = try startREPL(server)
    defer { terminal.stop() }
    // The table itself is under test, not whether it is tall enough for the pager.
    try terminal.type(":pager off")
    try terminal.send("Enter")
    try terminal.waitForPrompt(after: "pager")
    try terminal.type("LIST exhibits")
    try terminal.send("Enter")
    let screen = try terminal.waitForPrompt(after: "OK ")
    let lines = TerminalSession.lines(screen)
    let table = lines.drop { !$0.hasPrefix("id ") }.prefix { !$0.hasPrefix("OK ") }
    #expect(!table.isEmpty, "\(screen)")
    // A row the terminal had to break goes on at the left edge, where only a new row starts.
    let ids = [
      "eiffel_tower", "grand_palais", "petit_palais", "pont_alexandre_iii", "trottoir_roulant",
      "palais_de_l_electricite", "gare_d_orsay", "cineorama", "id ", "left out to fit",
    ]
    for line in table where !line.hasPrefix(" ") {
      #expect(ids.contains { line.hasPrefix($0) }, "a row broken by the terminal: '\(line)'\n\(screen)")
    }
  }

  @Test("a long ERR line at 60 columns breaks at spaces, every word whole")
  func errorWraps() throws {
    let server = try ShopServer()
    let missing = "an unusually long name of something this shop never sold"
    let raw = try ClientProcess.run(["-p", "\(server.port)", "--raw", "ORDER", missing])
    let message = try #require(raw.output.split(separator: "\n").last.map(String.init))
    #expect(message.hasPrefix("ERR ") && message.count > 60, "\(message)")
    let terminal = try startREPL(server)
    defer { terminal.stop() }
    try terminal.type("ORDER \"\(missing)\"")
    try terminal.send("Enter")
    let screen = try terminal.waitFor("the error and a fresh prompt") { screen in
      let lines = TerminalSession.lines(screen)
      return lines.count >= 3 && lines.contains { $0.hasPrefix("ERR ") } && lines.last?.hasSuffix(">") == true
    }
    let lines = TerminalSession.lines(screen)
    let start = try #require(lines.firstIndex { $0.hasPrefix("ERR ") })
    let shown = lines[start..<(lines.count - 1)]
    let words = shown.flatMap { $0.split(separator: " ").map(String.init) }
    #expect(words == message.split(separator: " ").map(String.init), "a word was broken:\n\(screen)")
  }

  /// Every word of `message` stands whole on one line of `screen`: broken by the terminal at
  /// its edge, a word's two halves would be on two lines.
  private static func expectWhole(_ message: String, in screen: String) {
    let lines = TerminalSession.lines(screen)
    for word in message.split(separator: " ") {
      #expect(lines.contains { $0.contains(word) }, "'\(word)' broken:\n\(screen)")
    }
  }

  @Test("the client's own messages wrap at spaces: a failed login, a refused switch, the :connect banner")
  func ownMessagesWrapAtSpaces() throws {
    let server = try ShopServer(accounts: ["alice": .customer])
    try withTerminal(server) { server, terminal in
      try terminal.start(
        ["-p", "\(server.port)", "-u", "alice"], environment: ["STOCKROOM_PASSWORD": "wrong " + ShopServer.password],
        width: 60)
      let login = try terminal.waitForPrompt(after: "guest")
      Self.expectWhole("login as alice failed: ERR AUTH wrong name or password; continuing as a guest", in: login)
      try terminal.type(":timing maybe")
      try terminal.send("Enter")
      let refused = try terminal.waitForPrompt(after: "nothing changed")
      Self.expectWhole(
        ":timing takes on or off (or true/false, yes/no, 1/0), not 'maybe'; nothing changed", in: refused)
      try terminal.type(":connect stockroom://127.0.0.1:\(server.port)")
      try terminal.send("Enter")
      // The command line itself is wider than the window; the second banner is the one.
      let banner = try terminal.waitFor("the banner again and a prompt") { screen in
        screen.components(separatedBy: "Ctrl-D leaves.").count == 3
          && TerminalSession.lines(screen).last?.hasSuffix(">") == true
      }
      let below = TerminalSession.lines(banner).drop { !$0.contains("> :connect") }.dropFirst(2)
      Self.expectWhole(
        "Connected to 127.0.0.1:\(server.port) (stockroomd 0.1.0 protocol=2). HELP lists the commands, Tab completes,",
        in: below.joined(separator: "\n"))
    }
  }
}

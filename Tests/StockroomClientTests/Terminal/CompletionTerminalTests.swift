import Foundation
import Testing

/// Tab in a real terminal (tmux) against a real shop: what the line becomes.
@Suite("Tab completion in a real terminal extends the line", .timeLimit(.minutes(30)))
struct CompletionTerminalTests {
  private func startREPL(_ server: ShopServer) throws -> TerminalSession {
    let terminal = try TerminalSession()
    try terminal.start(["-p", "\(server.port)"])
    try terminal.waitFor(text: "stockroom 127.0.0.1:\(server.port)>")
    return terminal
  }

  /// Waits for the line being edited to hold `text`; a hint may follow it on the right.
  private func waitForLine(_ terminal: TerminalSession, reading text: String) throws {
    try terminal.waitFor("the line to read '\(text)'") { screen in
      TerminalSession.lines(screen).last?.contains(text) == true
    }
  }

  @Test("after an item in ORDER, Tab completes another item: [n] is optional")
  func itemAfterItem() throws {
    let server = try ShopServer()
    let terminal = try startREPL(server)
    defer { terminal.stop() }
    try terminal.type("ORDER kiwi man")
    try terminal.send("Tab")
    try waitForLine(terminal, reading: "> ORDER kiwi mango")
    try terminal.send("C-c")
    try terminal.type("ORDER kiwi 김치")
    try terminal.send("Tab")
    try waitForLine(terminal, reading: "> ORDER kiwi 김치찌개 ")
    // And after that item, a count or yet another item.
    try terminal.type("2 stra")
    try terminal.send("Tab")
    try waitForLine(terminal, reading: "> ORDER kiwi 김치찌개 2 strawberry")
  }

  @Test(":watch SECONDS then Tab completes as at a line's start; :connect offers its schemes; :pager on or off")
  func clientCommandArguments() throws {
    let server = try ShopServer()
    let terminal = try startREPL(server)
    defer { terminal.stop() }
    try terminal.type(":watch 2 STOC")
    try terminal.send("Tab")
    try waitForLine(terminal, reading: "> :watch 2 STOCK")
    try terminal.type(" bana")
    try terminal.send("Tab")
    try waitForLine(terminal, reading: "> :watch 2 STOCK banana ")
    try terminal.send("C-c")
    // A scheme is completed without a space after it, since the host follows.
    try terminal.type(":connect stockrooms")
    try terminal.send("Tab")
    try waitForLine(terminal, reading: "> :connect stockrooms://")
    try terminal.type("x")
    try waitForLine(terminal, reading: "> :connect stockrooms://x")
    try terminal.send("C-c")
    // The two share an o, which the first Tab adds; the second lists them.
    try terminal.type(":pager ")
    try terminal.send("Tab")
    try waitForLine(terminal, reading: "> :pager o")
    try terminal.send("Tab")
    try terminal.waitFor("on and off listed") { screen in
      TerminalSession.lines(screen).contains { $0.hasPrefix("on") && $0.hasSuffix("off") }
    }
    try terminal.type("f")
    try terminal.send("Tab")
    try terminal.send("Enter")
    try terminal.waitForPrompt(after: "pager off")
  }

  @Test("an id and its name differing only in case are one word, so Tab extends kiw to kiwi")
  func caseTwinsAreOneWord() throws {
    let server = try ShopServer()
    let terminal = try startREPL(server)
    defer { terminal.stop() }
    try terminal.type("ORDER kiw")
    try terminal.send("Tab")
    try waitForLine(terminal, reading: "> ORDER kiwi")
    try terminal.send("Tab")
    let listed = try terminal.waitFor("the candidates") { $0.contains("kiwi_juice") }
    #expect(!listed.contains("Kiwi"), "the name was offered beside its id: \(listed)")
    // Typed in the name's case, the name's spelling is the one offered.
    try terminal.send("C-c")
    try terminal.type("ORDER Mang")
    try terminal.send("Tab")
    try waitForLine(terminal, reading: "> ORDER Mango")
  }
}

import Foundation
import Testing

/// Client commands that change the session (tmux): pages, wide tables, another server.
@Suite(
  ":next and :prev turn pages; :wide keeps every column; :connect moves to another server", .timeLimit(.minutes(30)))
struct SessionCommandTerminalTests {
  @Test(":next after LIST dishes size=5 shows page 2, :prev page 1, and past the ends says so")
  func pages() throws {
    try withTerminal { server, terminal in
      try terminal.start(["-p", "\(server.port)"])
      try terminal.waitFor(text: ">")
      try terminal.type(":next")
      try terminal.send("Enter")
      #expect(try terminal.waitForPrompt(after: "no paged list yet").contains("no paged list yet"))
      try terminal.type("LIST dishes size=5")
      try terminal.send("Enter")
      let firstPage = try terminal.waitForPrompt(after: "page 1 of")
      #expect(firstPage.contains("; :next for the next"), "the REPL's way to the next page: \(firstPage)")
      try terminal.type(":next")
      try terminal.send("Enter")
      let second = try terminal.waitForPrompt(after: "page 2 of")
      #expect(second.contains("LIST dishes size=5 page=2"), "\(second)")
      try terminal.type(":prev")
      try terminal.send("Enter")
      try terminal.type(":prev")
      try terminal.send("Enter")
      let first = try terminal.waitForPrompt(after: "already on the first page")
      #expect(first.contains("LIST dishes size=5 page=1"), "\(first)")
    }
  }

  @Test(":wide on draws a table wider than a 60-column terminal; :wide off fits it again")
  func wideTables() throws {
    try withTerminal { server, terminal in
      try terminal.start(["-p", "\(server.port)", "--no-pager"], width: 60)
      try terminal.waitFor(text: ">")
      try terminal.type(":wide on")
      try terminal.send("Enter")
      try terminal.type("LIST exhibits")
      try terminal.send("Enter")
      _ = try terminal.waitForPrompt(after: "OK")
      // A wide table runs past the window: joined again, some of its rows are wider than 60.
      let wideRows = TerminalSession.lines(try terminal.joinedScreen()).filter { $0.count > 60 }
      #expect(!wideRows.isEmpty, "no row wider than the window with :wide on")
      try terminal.type(":clear")
      try terminal.send("Enter")
      try terminal.type(":wide off")
      try terminal.send("Enter")
      let off = try terminal.waitForPrompt(after: "wide tables off")
      #expect(off.contains("wide tables off"))
      try terminal.type("LIST exhibits")
      try terminal.send("Enter")
      // :clear took the first table's OK off the screen, so this OK is the second table's.
      try terminal.waitForPrompt(after: "OK")
      let rows = TerminalSession.lines(try terminal.joinedScreen())
      #expect(rows.allSatisfy { $0.count <= 60 }, "\(rows.filter { $0.count > 60 })")
    }
  }

  @Test(":timing true keeps timing on, :json yes twice stays on, alone a switch reports, a stray word is refused")
  func switchesMeanWhatTheySay() throws {
    try withTerminal { server, terminal in
      try terminal.start(["-p", "\(server.port)"])
      try terminal.waitFor(text: ">")
      func run(_ line: String, expecting text: String) throws {
        try terminal.type(line)
        try terminal.send("Enter")
        let screen = try terminal.waitForPrompt(after: text, from: line)
        #expect(screen.contains(text), "\(screen)")
      }
      try run(":timing on", expecting: "timing on")
      try run(":timing true", expecting: "timing on")
      try run(":json yes", expecting: "json output on")
      try run(":json YES", expecting: "json output on")
      try run(":json 0", expecting: "json output off")
      // Alone, each of the four says how it stands and changes nothing.
      try run(":wide", expecting: "wide tables off; :wide on|off changes it")
      try run(":wide", expecting: "wide tables off; :wide on|off changes it")
      try run(":timing", expecting: "timing on; :timing on|off changes it")
      try run(":json", expecting: "json output off; :json on|off changes it")
      try run(":pager", expecting: "; :pager on|off changes it")
      try run(":timing maybe", expecting: ":timing takes on or off (or true/false, yes/no, 1/0), not 'maybe'")
      try run(":timing", expecting: "timing on; :timing on|off changes it")
    }
  }

  @Test(":connect URL moves to another server; a bad URL is refused and the session stays")
  func connectElsewhere() throws {
    let other = try ShopServer()
    try withTerminal { server, terminal in
      try terminal.start(["-p", "\(server.port)"])
      try terminal.waitFor(text: ">")
      try terminal.type(":connect nowhere")
      try terminal.send("Enter")
      #expect(try terminal.waitForPrompt(after: "URL").contains("not a URL"))
      try terminal.type(":connect stockroom://127.0.0.1:\(other.port)")
      try terminal.send("Enter")
      let moved = try terminal.waitFor(text: "127.0.0.1:\(other.port)>")
      #expect(moved.contains("Connected to 127.0.0.1:\(other.port)"), "\(moved)")
      try terminal.type("PING here")
      try terminal.send("Enter")
      #expect(try terminal.waitForPrompt(after: "OK here").contains("OK here"))
    }
  }

  @Test("a :connect that cannot connect, or whose login fails, keeps the session: same server, same user")
  func failedConnectKeepsTheSession() throws {
    let server = try ShopServer(accounts: ["alice": .customer, "bob": .customer])
    try withTerminal(server) { server, terminal in
      try terminal.start(
        ["-p", "\(server.port)", "-u", "alice"], environment: ["STOCKROOM_PASSWORD": ShopServer.password])
      let prompt = "alice@127.0.0.1:\(server.port)>"
      try terminal.waitFor(text: prompt)
      // Port 1 on loopback: nothing listens there, so the connection is refused at once.
      try terminal.type(":connect stockroom://127.0.0.1:1")
      try terminal.send("Enter")
      let refused = try terminal.waitForPrompt(after: "still connected to 127.0.0.1:\(server.port) as alice")
      #expect(TerminalSession.lines(refused).last?.hasSuffix(prompt) == true, "\(refused)")
      try terminal.type("WHOAMI")
      try terminal.send("Enter")
      #expect(try terminal.waitForPrompt(after: "OK alice", from: "WHOAMI").contains("OK alice"))

      try terminal.type(":connect stockroom://bob@127.0.0.1:\(server.port)")
      try terminal.send("Enter")
      try terminal.waitFor(text: "Password for bob:")
      try terminal.type("not bob's password")
      try terminal.send("Enter")
      let wrong = try terminal.waitForPrompt(after: "still connected to 127.0.0.1:\(server.port) as alice")
      #expect(wrong.contains("login as bob at 127.0.0.1:\(server.port) failed"), "\(wrong)")
      #expect(TerminalSession.lines(wrong).last?.hasSuffix(prompt) == true, "\(wrong)")
      try terminal.type("whoami")
      try terminal.send("Enter")
      #expect(try terminal.waitForPrompt(after: "OK alice", from: "whoami").contains("OK alice"))
    }
  }
}

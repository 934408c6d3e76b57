import Foundation
import Testing

/// The REPL in a real terminal. Each test owns its tmux server, history file and shop.
@Suite("The REPL in a real terminal (tmux)", .timeLimit(.minutes(30)))
struct TerminalTests {
  private static let promptEnd = "> "

  @Test("Tab completes a command word, then a Korean alias from the server's NAMES")
  func tabCompletion() throws {
    try withTerminal { server, terminal in
      try terminal.start(["-p", "\(server.port)"])
      try terminal.waitFor(text: "stockroom 127.0.0.1:\(server.port)>")
      try terminal.type("OR")
      try terminal.send("Tab")
      try terminal.waitFor(text: "> ORDER ")
      try terminal.type("딸바")
      try terminal.send("Tab")
      let screen = try terminal.waitFor(text: "> ORDER 딸바쥬스 ")
      // The typed prefix became the one dish's whole name: what stands on the input line, before
      // the usage hint shown to its right, is just that, with no list of candidates below it.
      let prompt = "stockroom 127.0.0.1:\(server.port)> "
      let line = try #require(TerminalSession.lines(screen).last)
      let typed = line.hasPrefix(prompt) ? line.dropFirst(prompt.count).components(separatedBy: "  ").first : nil
      #expect(typed == "ORDER 딸바쥬스", "\(screen)")
      try terminal.send("Enter")
      try terminal.waitForPrompt(after: "OK order=1")
      // Several matches: the list is shown and the line is kept.
      try terminal.type("SHOW 딸")
      try terminal.send("Tab")
      let listed = try terminal.waitFor("candidate list") { $0.contains("딸기쥬스") && $0.contains("딸바쥬스") }
      #expect(TerminalSession.lines(listed).last?.hasSuffix("> SHOW 딸") == true)
    }
  }

  @Test("history survives to the next run; lines with a password never reach the file")
  func historyAcrossRuns() throws {
    let server = try ShopServer()
    let first = try TerminalSession()
    defer { first.stop() }
    try first.start(["-p", "\(server.port)"])
    try first.waitFor(text: ">")
    for _ in 0..<2 {
      try first.type("STOCK kiwi")
      try first.send("Enter")
      try first.waitForPrompt(after: "OK 1 item", from: "STOCK kiwi")
    }
    // Each is refused (no such account, not logged in, not an admin), but typed all the same.
    let secretLines = [
      "LOGIN alice hunter2", "REGISTER \"\" hunter3", "PASSWD hunter4 hunter5", "USER ADD bob hunter6 role=staff",
      "ORDER nothing_here password=hunter7",
    ]
    for (index, line) in secretLines.enumerated() {
      try first.type(line)
      try first.send("Enter")
      try first.waitFor("reply \(index + 1) to a line with a password") { screen in
        let lines = TerminalSession.lines(screen)
        return lines.filter { $0.hasPrefix("ERR ") }.count == index + 1
          && lines.last?.hasSuffix(">") == true
      }
    }
    try first.send("C-d")
    let history = first.historyFile
    try first.waitFor("the file to hold STOCK kiwi") { _ in
      (try? String(contentsOfFile: history, encoding: .utf8))?.contains("kiwi") == true
    }
    let saved = try String(contentsOfFile: history, encoding: .utf8)
    #expect(saved.components(separatedBy: "kiwi").count == 2, "a repeated line was kept twice: \(saved)")
    #expect(!saved.contains("LOGIN"))
    let inHistory = saved.contains("hunter")
    #expect(!inHistory, "a password reached the history file")

    let second = try TerminalSession(historyFile: history)
    defer { second.stop() }
    try second.start(["-p", "\(server.port)"])
    try second.waitFor(text: ">")
    try second.send("Up")
    try second.waitFor(text: "> STOCK kiwi")
    try second.send("Enter")
    try second.waitForPrompt(after: "OK 1 item")
    // Ctrl-R finds it by a fragment too, and Enter runs what it found.
    try second.send("C-c")
    try second.send("C-r")
    try second.type("kiw")
    try second.waitFor("the search to find the line") { screen in
      let lines = TerminalSession.lines(screen)
      return lines.last == "bck:kiw"
        && TerminalSession.withoutHint(lines.dropLast().last)?.hasSuffix("> STOCK kiwi") == true
    }
    try second.send("Enter")
    try second.waitFor("the found line to run") { screen in
      screen.components(separatedBy: "OK 1 item").count == 3
    }
  }

  @Test("after a command word the remaining arguments are hinted from the command table")
  func argumentHint() throws {
    try withTerminal { server, terminal in
      try terminal.start(["-p", "\(server.port)"])
      try terminal.waitFor(text: ">")
      try terminal.type("ORDER ")
      let screen = try terminal.waitFor(text: "<item> [n] [<item> [n] ...]")
      #expect(TerminalSession.lines(screen).last?.contains("> ORDER ") == true)
      try terminal.type("banana_juice ")
      try terminal.waitFor("the hint to move on") { screen in
        let last = TerminalSession.lines(screen).last ?? ""
        return last.contains("[n] [<item> [n] ...]") && !last.contains("<item> [n] [<item>")
      }
      // Ctrl-C clears the half-typed line and gives a fresh prompt.
      try terminal.send("C-c")
      try terminal.waitFor("a fresh prompt") { screen in
        TerminalSession.lines(screen).last?.hasSuffix("127.0.0.1:\(server.port)>") == true
      }
      // A short line after a long one is sent as typed, with nothing left over from before.
      try terminal.type("PING a-long-first-line")
      try terminal.send("Enter")
      try terminal.waitForPrompt(after: "OK a-long-first-line")
      try terminal.type("PING x")
      try terminal.send("Enter")
      let screen2 = try terminal.waitFor(text: "OK x")
      #expect(TerminalSession.lines(screen2).contains("OK x"), "\(screen2)")
      let cleared = TerminalSession.lines(screen2).filter { $0.contains("^C") }
      #expect(cleared.count == 1 && !cleared[0].contains("[n]"), "hint left behind: \(screen2)")
    }
  }

  @Test("a WATCH event from another client appears above the prompt; the half-typed line survives")
  func watchEventWhileTyping() throws {
    try withTerminal { server, terminal in
      try terminal.start(["-p", "\(server.port)"])
      try terminal.waitFor(text: ">")
      try terminal.type("WATCH banana")
      try terminal.send("Enter")
      try terminal.waitForPrompt(after: "OK watching=banana")
      try terminal.type("STOCK bana")
      try terminal.waitFor(text: "> STOCK bana")

      let other = try ClientProcess.run(
        ["-p", "\(server.port)", "ORDER", "banana_juice"])
      #expect(other.status == 0, "\(other.error)")
      // Who ordered is told to staff only; this watcher is a guest.
      let screen = try terminal.waitFor(text: "! stock banana → 8 (-2, order 1)")
      let lines = TerminalSession.lines(screen)
      let eventRow = try #require(lines.firstIndex { $0.contains("! stock banana → 8") })
      #expect(TerminalSession.withoutHint(lines.last)?.hasSuffix("> STOCK bana") == true, "\(lines)")
      #expect(eventRow == lines.count - 2, "the event is not just above the prompt: \(lines)")

      // The editor's buffer kept the text too: finishing the word runs the whole command.
      try terminal.type("na")
      try terminal.send("Enter")
      try terminal.waitForPrompt(after: "OK 1 item")
      #expect(try terminal.screen().contains("banana  fruit      8"))
    }
  }

  @Test("a watcher's own order: its event shows as soon as it arrives, not after the next command")
  func ownEventShownAtOnce() throws {
    let server = try ShopServer()
    try server.register("alice")
    let terminal = try TerminalSession()
    defer { terminal.stop() }
    try terminal.start(
      ["-p", "\(server.port)", "-u", "alice"], environment: ["STOCKROOM_PASSWORD": ShopServer.password])
    try terminal.waitFor(text: "stockroom alice@127.0.0.1:\(server.port)>")
    try terminal.type("WATCH")
    try terminal.send("Enter")
    try terminal.waitForPrompt(after: "OK watching=all")
    try terminal.type("ORDER banana_juice 2")
    try terminal.send("Enter")
    // The server sends the event right behind the order's OK; nothing more is typed.
    let screen = try terminal.waitForPrompt(after: "! stock banana → 6 (-4, order 1)", timeout: 10)
    let lines = TerminalSession.lines(screen)
    let okRow = try #require(lines.lastIndex { $0.contains("OK order=1") })
    let eventRow = try #require(lines.lastIndex { $0.contains("! stock banana → 6") })
    #expect(okRow < eventRow, "the event came before the reply it follows: \(lines)")
    #expect(lines.last?.hasSuffix(">") == true, "\(lines)")
  }

  @Test("completion learns a product another user lists, while the line is half-typed")
  func completionFollowsCatalogue() throws {
    try withTerminal { server, terminal in
      try server.register("bob")
      try terminal.start(["-p", "\(server.port)"])
      try terminal.waitFor(text: ">")
      try terminal.type("WATCH")
      try terminal.send("Enter")
      try terminal.waitForPrompt(after: "OK watching=all")
      try terminal.type("PRODUCT EDIT ")
      try terminal.waitFor(text: "<id>")
      let other = try ClientProcess.run(
        ["-p", "\(server.port)", "-u", "bob", "PRODUCT", "NEW", "name=Red apple", "price=1200", "stock=3"],
        environment: ["STOCKROOM_PASSWORD": ShopServer.password])
      #expect(other.status == 0, "\(other.output)\(other.error)")
      try terminal.waitFor(text: "! stock p1 (Red apple) → 3 (+3, listed)")
      try terminal.send("Tab")
      try terminal.waitFor("p1 completed") { screen in
        TerminalSession.lines(screen).last?.contains("> PRODUCT EDIT p1 ") == true
      }
    }
  }

  @Test("HELP and :json are answered locally; Ctrl-D leaves with status 0")
  func localCommandsAndLeaving() throws {
    try withTerminal { server, terminal in
      try terminal.start(["-p", "\(server.port)"])
      try terminal.waitFor(text: ">")
      try terminal.type("HELP ORDER")
      try terminal.send("Enter")
      try terminal.waitForPrompt(after: "ORDER 딸바쥬스 2 galbi_jjim")
      try terminal.type(":json on")
      try terminal.send("Enter")
      try terminal.waitForPrompt(after: "json output on")
      try terminal.type("STOCK kiwi")
      try terminal.send("Enter")
      // Laid out for reading, with the status line's words as its message, not split into args.
      let json = try terminal.waitForPrompt(after: #"  "rows": ["#)
      #expect(json.contains(#"  "message": "1 item"#) && !json.contains("args"), "\(json)")
      #expect(json.contains(#"    {"id": "kiwi", "kind": "fruit", "stock": 10"#), "\(json)")
      try terminal.type(":json off")
      try terminal.send("Enter")
      try terminal.waitForPrompt(after: "json output off")
      try terminal.type("STOCK kiwi")
      try terminal.send("Enter")
      try terminal.waitForPrompt(after: "kiwi  fruit     10  ██████████")
      try terminal.send("C-d")
      try terminal.waitFor(text: "[stockroom exited with status 0]")
    }
  }

  @Test("when the server goes away the prompt says so; the next command reconnects and logs in again unasked")
  func reconnect() throws {
    var server: ShopServer? = try ShopServer()
    let port = try #require(server?.port)
    // Staff, so events name who ordered: seeing the name after the reconnect shows the login took.
    try server?.addAccount("alice", role: .staff)
    let terminal = try TerminalSession()
    defer { terminal.stop() }
    // No STOCKROOM_PASSWORD: the password is typed once, at the prompt.
    try terminal.start(["-p", "\(port)", "-u", "alice"])
    try terminal.waitFor(text: "Password for alice:")
    try terminal.type(ShopServer.password)
    try terminal.send("Enter")
    try terminal.waitFor(text: "stockroom alice@127.0.0.1:\(port)>")
    try terminal.type("WATCH")
    try terminal.send("Enter")
    try terminal.waitForPrompt(after: "OK watching=all")
    server?.server.stop()
    server = nil
    try terminal.waitFor(text: "not connected>")
    let screen = try terminal.screen()
    #expect(screen.components(separatedBy: "; reconnecting").count == 2)

    // A new server on the same port, where alice exists again (the in-process shop is fresh):
    // the next command (or the background retry, whichever is first) reconnects, logs in and
    // says WATCH again, without asking anything.
    let second = try ShopServer(port: port, accounts: ["alice": .staff])
    try second.register("bob")
    try terminal.type("DIARY LIST")
    try terminal.send("Enter")
    try terminal.waitFor(text: "reconnected to 127.0.0.1:\(port)")
    let after = try terminal.waitForPrompt(after: "> DIARY LIST")
    #expect(TerminalSession.lines(after).last?.hasPrefix("stockroom alice@127.0.0.1:\(port)>") == true, "\(after)")
    #expect(after.components(separatedBy: "Password for").count == 2, "asked again: \(after)")
    #expect(!after.contains("ERR NOAUTH"), "DIARY LIST ran as a guest: \(after)")
    let shown = after.contains(ShopServer.password)
    #expect(!shown, "the password showed on screen")
    let other = try ClientProcess.run(
      ["-p", "\(second.port)", "-u", "bob", "ORDER", "banana_juice"],
      environment: ["STOCKROOM_PASSWORD": ShopServer.password])
    #expect(other.status == 0, "\(other.error)")
    try terminal.waitFor(text: "! stock banana → 8 (-2, order 1, by bob)")
    let reconnected = try ClientProcess.run(["-p", "\(second.port)", "INFO"])
    #expect(reconnected.output.contains("watchers=1"), "\(reconnected.output)")
  }

  @Test("a watcher idle at the prompt reconnects by itself with backoff, says so once, and watches again")
  func idleWatcherReconnects() throws {
    var server: ShopServer? = try ShopServer()
    let port = try #require(server?.port)
    try server?.addAccount("alice", role: .staff)
    let terminal = try TerminalSession()
    terminal.secrets = [ShopServer.password]
    defer { terminal.stop() }
    try terminal.start(["-p", "\(port)", "-u", "alice"], environment: ["STOCKROOM_PASSWORD": ShopServer.password])
    try terminal.waitFor(text: "stockroom alice@127.0.0.1:\(port)>")
    try terminal.type("WATCH")
    try terminal.send("Enter")
    try terminal.waitForPrompt(after: "OK watching=all")
    server?.server.stop()
    server = nil
    let down = try terminal.waitFor(text: "not connected>")
    #expect(down.contains("; reconnecting"), "\(down)")
    // The line typed meanwhile shows, so the retries do not hold up the keyboard.
    try terminal.type("STOCK kiwi")
    try terminal.waitFor(text: "not connected> STOCK kiwi")
    // Three attempts meet a port that closes them before a greeting: each fails silently, and
    // the waits between them grow (0.5 s then 1 s at least; without backoff they would be 0.25 s).
    let closing = try ClosingListener(port: port)
    let attempts = closing.closeAttempts(3)
    closing.stop()
    #expect(attempts.count == 3, "reconnect attempts seen: \(attempts.count)")
    if let first = attempts.first, let last = attempts.last {
      #expect(last.timeIntervalSince(first) >= 1.0, "no backoff: \(attempts)")
    }
    let failed = try terminal.screen()
    #expect(failed.components(separatedBy: "reconnecting").count == 2, "said more than once: \(failed)")
    #expect(TerminalSession.withoutHint(TerminalSession.lines(failed).last) == "not connected> STOCK kiwi", "\(failed)")

    let second = try ShopServer(port: port, accounts: ["alice": .staff])
    try second.register("bob")
    let back = try terminal.waitFor(text: "reconnected to 127.0.0.1:\(port)")
    #expect(back.components(separatedBy: "reconnecting").count == 2, "said more than once: \(back)")
    try terminal.waitFor("alice's prompt with the half-typed line") { screen in
      TerminalSession.withoutHint(TerminalSession.lines(screen).last) == "stockroom alice@127.0.0.1:\(port)> STOCK kiwi"
    }
    // Nothing typed since: bob's order reaches the screen because the WATCH was said again.
    let other = try ClientProcess.run(
      ["-p", "\(port)", "-u", "bob", "ORDER", "banana_juice"], environment: ["STOCKROOM_PASSWORD": ShopServer.password])
    #expect(other.status == 0, "\(other.error)")
    let event = try terminal.waitFor(text: "! stock banana → 8 (-2, order 1, by bob)")
    #expect(
      TerminalSession.withoutHint(TerminalSession.lines(event).last) == "stockroom alice@127.0.0.1:\(port)> STOCK kiwi",
      "\(event)")
  }

  @Test("a connection the server closed for idleness is not reopened behind its back; the next command does it")
  func idleCloseWaitsForCommand() throws {
    try withTerminal(try ShopServer(idleTimeout: 1)) { server, terminal in
      try terminal.start(["-p", "\(server.port)"])
      try terminal.waitFor(text: "stockroom 127.0.0.1:\(server.port)>")
      try terminal.waitFor(text: "the server closed this idle connection after 1 s")
      let closed = try terminal.waitFor(text: "not connected>")
      #expect(closed.contains("will reconnect on the next command"), "\(closed)")
      // A connection of our own left idle is closed by the server after its 1 s, past the first
      // retry delays (0.25 s, 0.5 s): a background retry would have connected by then.
      let probe = try QuietConnection(port: server.port)
      #expect(probe.waitForClose(), "the server did not close an idle connection")
      let quiet = try terminal.screen()
      #expect(!quiet.contains("reconnected"), "\(quiet)")
      // The REPL's first connection, the probe, and this one: nothing opened behind our back.
      let info = try ClientProcess.run(["-p", "\(server.port)", "INFO"])
      #expect(info.output.contains("connections_total=3"), "\(info.output)")
      try terminal.type("STOCK kiwi")
      try terminal.send("Enter")
      try terminal.waitForPrompt(after: "reconnected to 127.0.0.1:\(server.port)")
    }
  }

  @Test("a retry that meets a server which never greets gives up in time: typing stays live, and it retries later")
  func retryAgainstSilentPort() throws {
    var server: ShopServer? = try ShopServer()
    let port = try #require(server?.port)
    let terminal = try TerminalSession()
    defer { terminal.stop() }
    try terminal.start(["-p", "\(port)"])
    try terminal.waitFor(text: "stockroom 127.0.0.1:\(port)>")
    try terminal.type("WATCH")
    try terminal.send("Enter")
    try terminal.waitForPrompt(after: "OK watching=all")
    server?.server.stop()
    server = nil
    try terminal.waitFor(text: "not connected>")
    let silent = try SilentListener(port: port)
    // Once an attempt has reached the silent port, type: the keys show once it gives up.
    #expect(silent.waitForConnection(), "no reconnect attempt reached the port")
    try terminal.type("STOCK kiwi")
    try terminal.waitFor(text: "not connected> STOCK kiwi", timeout: 5)
    silent.stop()
    let second = try ShopServer(port: port)
    try terminal.waitFor(text: "reconnected to 127.0.0.1:\(second.port)", timeout: 15)
  }
}

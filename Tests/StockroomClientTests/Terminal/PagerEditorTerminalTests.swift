import Foundation
import Testing

/// The psql habits of the REPL in a real terminal: the pager, the editor, `:timing`. The pager
/// and the editor are stand-in shell scripts set through `PAGER` and `EDITOR`, which record
/// what they were given.
@Suite("Pager, editor and timing in a real terminal (tmux)", .timeLimit(.minutes(30)))
struct PagerEditorTerminalTests {
  /// Writes a shell script into the session's folder and returns the command that runs it.
  ///
  /// Run by `sh PATH` rather than exec'd: a tmux server another test starts meanwhile may
  /// inherit the test process's descriptor of the file being written, and exec of a file open
  /// for writing anywhere fails with ETXTBSY ("Text file busy").
  private static func script(_ name: String, in folder: URL, _ body: String) throws -> String {
    let path = folder.appendingPathComponent(name).path
    try body.write(toFile: path, atomically: true, encoding: .utf8)
    return "sh " + path
  }

  private static func contents(_ path: String) -> String {
    (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
  }

  @Test("a reply taller than the screen goes through $PAGER; one that fits does not; :pager off stops it")
  func pager() throws {
    try withTerminal { server, terminal in
      let record = terminal.folder.appendingPathComponent("paged").path
      let pager = try Self.script(
        "pager", in: terminal.folder,
        "cat >> '\(record)'\necho '=== end of page ===' >> '\(record)'\necho '[pager ran]'\n")
      try terminal.start(["-p", "\(server.port)"], environment: ["PAGER": pager], rows: 15)
      try terminal.waitFor(text: "stockroom 127.0.0.1:\(server.port)>")
      try terminal.type("STOCK kiwi")
      try terminal.send("Enter")
      try terminal.waitForPrompt(after: "OK 1 item")
      #expect(!FileManager.default.fileExists(atPath: record), "a one-row reply was paged")

      // Twenty rows, a header and the status: taller than 15 lines.
      try terminal.type("STOCK")
      try terminal.send("Enter")
      let paged = try terminal.waitForPrompt(after: "[pager ran]")
      let seen = Self.contents(record)
      #expect(seen.contains("japchae"), "the pager did not get the reply: \(seen)")
      #expect(seen.contains("OK 20 items"))
      #expect(!paged.contains("japchae"), "the reply was printed as well as paged: \(paged)")

      try terminal.type(":pager off")
      try terminal.send("Enter")
      try terminal.waitForPrompt(after: "pager off")
      try terminal.type("STOCK")
      try terminal.send("Enter")
      let direct = try terminal.waitForPrompt(after: "OK 20 items")
      #expect(direct.contains("japchae"))
      #expect(Self.contents(record).components(separatedBy: "=== end of page ===").count == 2, "paged again")
      try terminal.send("C-d")
      try terminal.waitFor(text: "[stockroom exited with status 0]")
    }
  }

  @Test("the default pager is less -FRX: Ctrl-C in it does not end the REPL, and q returns to the prompt")
  func realLess() throws {
    try withTerminal { server, terminal in
      try terminal.start(["-p", "\(server.port)"], rows: 12)
      try terminal.waitFor(text: "stockroom 127.0.0.1:\(server.port)>")
      try terminal.type("STOCK")
      try terminal.send("Enter")
      try terminal.waitFor("less's prompt") { TerminalSession.lines($0).last == ":" }
      try terminal.send("C-c")
      // less throws away keys typed ahead of an interrupt, so a `q` sent with the Ctrl-C may be
      // lost: it is sent again until the REPL's prompt is back.
      // A `q` that arrives after less has gone is typed at the prompt, and cleared with Ctrl-C.
      let prompt = "127.0.0.1:\(server.port)>"
      let back: (String) -> Bool = { screen in
        guard let last = TerminalSession.lines(screen).last, let end = last.range(of: prompt) else { return false }
        return last[end.upperBound...].allSatisfy { $0 == " " || $0 == "q" }
      }
      for _ in 0..<10 {
        try terminal.send("q")
        if (try? terminal.waitFor("the REPL's prompt after less", timeout: 2, back)) != nil { break }
      }
      let screen = try terminal.waitFor("the REPL's prompt after less", back)
      if TerminalSession.lines(screen).last?.hasSuffix(prompt) == false {
        try terminal.send("C-c")
        try terminal.waitFor("a clean prompt") { TerminalSession.lines($0).last?.hasSuffix(prompt) == true }
      }
      try terminal.type("PING after")
      try terminal.send("Enter")
      let after = try terminal.waitForPrompt(after: "OK after")
      #expect(!after.contains("[stockroom exited"), "\(after)")
    }
  }

  @Test("no pager when stdout is not a terminal, even in the REPL")
  func noPagerIntoFile() throws {
    try withTerminal { server, terminal in
      let record = terminal.folder.appendingPathComponent("paged").path
      let output = terminal.folder.appendingPathComponent("out").path
      let pager = try Self.script("pager", in: terminal.folder, "cat > '\(record)'\n")
      try terminal.start(["-p", "\(server.port)"], environment: ["PAGER": pager], rows: 15, stdout: output)
      // libedit does not edit (nor prompt) when stdout is not a terminal; the line waits in the
      // terminal's input until it is read.
      try terminal.type("STOCK")
      try terminal.send("Enter")
      try terminal.waitFor("the reply in the output file") { _ in Self.contents(output).contains("OK 20 items") }
      try terminal.send("C-d")
      try terminal.waitFor(text: "[stockroom exited with status 0]")
      #expect(Self.contents(output).contains("japchae"))
      #expect(!FileManager.default.fileExists(atPath: record), "paged into a file")
    }
  }

  @Test("DIARY NEW without a body and DIARY EDIT without text open $EDITOR on a private file and send what was saved")
  func editor() throws {
    let server = try ShopServer()
    try server.register("alice")
    let terminal = try TerminalSession()
    defer { terminal.stop() }
    let folder = terminal.folder.path
    // The script keeps what it was shown, the file's mode and path, then writes `next` over it;
    // with a `fail` file present it exits 3 instead.
    let editor = try Self.script(
      "editor", in: terminal.folder,
      """
      echo "$1" > '\(folder)/path'
      stat -c %a "$1" > '\(folder)/mode'
      cp "$1" '\(folder)/shown'
      [ -e '\(folder)/fail' ] && exit 3
      cat '\(folder)/next' > "$1"

      """)
    let next = terminal.folder.appendingPathComponent("next").path
    try "Bought 딸기.\nSold \"out\" by noon.\n".write(toFile: next, atomically: true, encoding: .utf8)
    try terminal.start(
      ["-p", "\(server.port)", "-u", "alice"],
      environment: ["STOCKROOM_PASSWORD": ShopServer.password, "EDITOR": editor, "VISUAL": ""])
    try terminal.waitFor(text: "stockroom alice@127.0.0.1:\(server.port)>")
    try terminal.type("DIARY NEW \"Market day\"")
    try terminal.send("Enter")
    try terminal.waitForPrompt(after: "OK diary=1")
    #expect(Self.contents("\(folder)/shown").isEmpty)
    #expect(Self.contents("\(folder)/mode") == "600\n")
    let tempPath = Self.contents("\(folder)/path").trimmingCharacters(in: .newlines)
    #expect(!tempPath.isEmpty && !FileManager.default.fileExists(atPath: tempPath), "temp file left: \(tempPath)")
    let environment = ["STOCKROOM_PASSWORD": ShopServer.password]
    let shown = try ClientProcess.run(
      ["-p", "\(server.port)", "-u", "alice", "DIARY", "SHOW", "1"], environment: environment)
    #expect(shown.output.contains(#"title="Market day" body="Bought 딸기.\nSold \"out\" by noon.""#), "\(shown.output)")

    // EDIT starts from the current body and sends the new one.
    try "Sold out by ten.\n".write(toFile: next, atomically: true, encoding: .utf8)
    try terminal.type("DIARY EDIT 1")
    try terminal.send("Enter")
    try terminal.waitForPrompt(after: "OK diary=1", from: "DIARY EDIT 1")
    #expect(Self.contents("\(folder)/shown") == "Bought 딸기.\nSold \"out\" by noon.\n")
    let edited = try ClientProcess.run(
      ["-p", "\(server.port)", "-u", "alice", "DIARY", "SHOW", "1"], environment: environment)
    #expect(edited.output.contains(#"body="Sold out by ten.""#), "\(edited.output)")

    // An empty save and a failed editor cancel, and nothing is sent.
    try "\n".write(toFile: next, atomically: true, encoding: .utf8)
    try terminal.type("DIARY EDIT 1")
    try terminal.send("Enter")
    try terminal.waitForPrompt(after: "the text was empty; nothing sent")
    #expect(FileManager.default.createFile(atPath: "\(folder)/fail", contents: nil))
    try terminal.type("DIARY NEW \"Second\"")
    try terminal.send("Enter")
    try terminal.waitForPrompt(after: "exited with status 3; nothing sent")
    let list = try ClientProcess.run(
      ["-p", "\(server.port)", "-u", "alice", "DIARY", "LIST"], environment: environment)
    #expect(list.lines.last == "OK total=1 page=1 pages=1 size=20", "\(list.output)")
    let after = try ClientProcess.run(
      ["-p", "\(server.port)", "-u", "alice", "DIARY", "SHOW", "1"], environment: environment)
    #expect(after.output.contains(#"body="Sold out by ten.""#), "\(after.output)")

    // Another user's or a missing entry: the server's answer, and no editor.
    try FileManager.default.removeItem(atPath: "\(folder)/shown")
    try terminal.type("DIARY EDIT 7")
    try terminal.send("Enter")
    try terminal.waitForPrompt(after: "ERR NOTFOUND no diary entry 7 of yours")
    #expect(!FileManager.default.fileExists(atPath: "\(folder)/shown"), "the editor ran for a missing entry")
  }

  @Test(":timing on prints the time per command, :timing off stops it")
  func timing() throws {
    try withTerminal { server, terminal in
      try terminal.start(["-p", "\(server.port)"])
      try terminal.waitFor(text: "stockroom 127.0.0.1:\(server.port)>")
      try terminal.type(":timing on")
      try terminal.send("Enter")
      try terminal.waitForPrompt(after: "timing on")
      try terminal.type("PING one")
      try terminal.send("Enter")
      let timed = try terminal.waitForPrompt(after: "Time: ")
      let lines = TerminalSession.lines(timed)
      let ok = try #require(lines.lastIndex(of: "OK one"))
      #expect(lines[ok + 1].range(of: #"^Time: \d+\.\d{3} ms$"#, options: .regularExpression) != nil, "\(lines)")
      try terminal.type(":timing off")
      try terminal.send("Enter")
      try terminal.waitForPrompt(after: "timing off")
      try terminal.type("PING two")
      try terminal.send("Enter")
      let untimed = try terminal.waitForPrompt(after: "OK two")
      #expect(untimed.components(separatedBy: "Time: ").count == 2, "\(untimed)")
    }
  }
}

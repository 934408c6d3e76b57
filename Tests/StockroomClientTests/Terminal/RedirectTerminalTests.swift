import Foundation
import Testing

/// Replies into shell commands and files, and shell commands from the prompt (tmux).
@Suite(
  "| and > take a reply to the shell or a file; :! runs a command; :help lists the client's", .timeLimit(.minutes(30)))
struct RedirectTerminalTests {
  @Test("LIST dishes | grep 찌개 shows only the stews; STOCK > FILE writes the reply without colour")
  func pipesAndFiles() throws {
    try withTerminal { server, terminal in
      try terminal.start(["-p", "\(server.port)"], environment: ["SHELL": "/bin/bash"])
      try terminal.waitFor(text: ">")
      try terminal.type("LIST dishes | grep 찌개")
      try terminal.send("Enter")
      let screen = try terminal.waitForPrompt(after: "김치찌개")
      let shown = TerminalSession.lines(screen)
      #expect(shown.contains { $0.contains("김치찌개") } && shown.contains { $0.contains("된장찌개") }, "\(screen)")
      // grep took the status line away with every dish that is no stew.
      #expect(!screen.contains("OK "), "\(screen)")
      #expect(!screen.contains("잡채"), "\(screen)")

      let file = terminal.folder.appendingPathComponent("stock.txt").path
      try terminal.type("STOCK > \(file)")
      try terminal.send("Enter")
      try terminal.type("STOCK banana >> ~/stock.txt")
      try terminal.send("Enter")
      try terminal.type(":!wc -l < \(file) | sed 's/^/lines=/'")
      try terminal.send("Enter")
      let after = try terminal.waitForPrompt(after: "lines=")
      let written = try String(contentsOfFile: file, encoding: .utf8)
      #expect(written.contains("banana") && written.contains("OK "), "\(written)")
      #expect(!written.contains("\u{1B}["), "colour went into the file: \(written)")
      #expect(written.components(separatedBy: "OK ").count == 3, "the second reply was not added: \(written)")
      #expect(!after.contains("Red apple"), "the file's reply was printed too:\n\(after)")
    }
  }

  @Test("a password is never split at | or >: LOGIN goes whole to the server and no file appears")
  func passwordsAreNotSplit() throws {
    try withTerminal { server, terminal in
      try terminal.start(["-p", "\(server.port)"])
      try terminal.waitFor(text: ">")
      let leak = terminal.folder.appendingPathComponent("leak").path
      terminal.secrets = ["pass>\(leak)"]
      try terminal.type("LOGIN alice pass>\(leak)")
      try terminal.send("Enter")
      let screen = try terminal.waitForPrompt(after: "ERR")
      #expect(screen.contains("ERR AUTH"), "\(screen)")
      #expect(!FileManager.default.fileExists(atPath: leak), "part of the password became a file name")
    }
  }

  @Test("a failed command's ERR is on screen after > FILE and | COMMAND; a file's OK says where it went")
  func failuresAreSeen() throws {
    try withTerminal { server, terminal in
      try terminal.start(["-p", "\(server.port)"], environment: ["SHELL": "/bin/bash"])
      try terminal.waitFor(text: ">")
      let file = terminal.folder.appendingPathComponent("y.txt").path
      try terminal.type("ORDER nosuch > \(file)")
      try terminal.send("Enter")
      let failed = try terminal.waitForPrompt(after: "(written to \(file))", from: "ORDER nosuch > \(file)")
      #expect(failed.contains("ERR "), "\(failed)")
      #expect(try String(contentsOfFile: file, encoding: .utf8).contains("ERR "))
      try terminal.type("STOCK banana >> \(file)")
      try terminal.send("Enter")
      let added = try terminal.waitForPrompt(after: "(added to \(file))", from: "STOCK banana >> \(file)")
      #expect(TerminalSession.lines(added).contains { $0.hasPrefix("OK ") && $0.hasSuffix("(added to \(file))") })
      // grep drops the ERR line the pipe got; the REPL still says it, and grep's status.
      try terminal.type("ORDER nosuch | grep -v ERR")
      try terminal.send("Enter")
      let piped = try terminal.waitForPrompt(after: "exit status 1", from: "ORDER nosuch | grep -v ERR")
      let below = TerminalSession.lines(piped).drop { !$0.hasSuffix("ORDER nosuch | grep -v ERR") }
      #expect(below.contains { $0.hasPrefix("ERR ") }, "\(piped)")
    }
  }

  @Test(":!COMMAND runs and a failing status is said; :help lists the client commands; HELP goes through a pipe")
  func shellAndHelp() throws {
    try withTerminal { server, terminal in
      try terminal.start(["-p", "\(server.port)"])
      try terminal.waitFor(text: ">")
      try terminal.type(":!exit 3")
      try terminal.send("Enter")
      #expect(try terminal.waitForPrompt(after: "exit status 3").contains("exit status 3"))
      try terminal.type(":help")
      try terminal.send("Enter")
      let help = try terminal.waitForPrompt(after: "COMMAND > FILE")
      #expect(help.contains(":!COMMAND") && help.contains(":json [on|off]") && help.contains("COMMAND | SHELL"))
      try terminal.type("HELP ORDER | head -1 | sed 's/^/first=/'")
      try terminal.send("Enter")
      let head = try terminal.waitForPrompt(after: "first=")
      #expect(TerminalSession.lines(head).filter { $0.hasPrefix("first=") }.count == 1, "\(head)")
      try terminal.type(":help | grep -c :wide | sed 's/^/count=/'")
      try terminal.send("Enter")
      #expect(try terminal.waitForPrompt(after: "count=").contains("count=1"))
      try terminal.type(":timing on | cat")
      try terminal.send("Enter")
      #expect(try terminal.waitForPrompt(after: "other : commands print here").contains("HELP, :help or :history"))
    }
  }
}

import Foundation
import Testing

/// Replies into shell commands and files, and shell commands from the prompt (tmux).
@Suite("| and > take a reply to the shell or a file; :! runs a command; :help lists the client's")
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
      #expect(screen.contains("ERR AUTH") || screen.contains("ERR"), "\(screen)")
      #expect(!FileManager.default.fileExists(atPath: leak), "part of the password became a file name")
    }
  }

  @Test(":!COMMAND runs and a failing status is said; :help lists the client commands; | after HELP is refused")
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
      try terminal.type("HELP | cat")
      try terminal.send("Enter")
      #expect(
        try terminal.waitForPrompt(after: "take a server command's reply").contains("HELP and : commands print here"))
    }
  }
}

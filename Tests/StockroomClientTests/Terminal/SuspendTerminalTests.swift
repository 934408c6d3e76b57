import Foundation
import StockroomTestSupport
import Testing

/// Ctrl-Z and `fg` from an interactive shell (bash in tmux), as a user does it.
@Suite("After Ctrl-Z and fg the prompt and the half-typed line are drawn again", .timeLimit(.minutes(30)))
struct SuspendTerminalTests {
  @Test("Ctrl-Z, then fg: the prompt comes back with the line as it was, and it still runs")
  func redrawnAfterForeground() throws {
    try withTerminal { server, terminal in
      // A shell with job control, so that fg means what it does for a user.
      try terminal.start(["--version"], afterwards: "PS1='shell$ ' exec bash --norc --noprofile -i")
      try terminal.waitFor(text: "shell$")
      let command = try terminal.commandLine(
        ["-p", "\(server.port)"], environment: ["STOCKROOM_HISTFILE": "/dev/null"])
      try terminal.type(command)
      try terminal.send("Enter")
      try terminal.waitFor(text: "stockroom 127.0.0.1:\(server.port)>")
      try terminal.type("PING again")
      try terminal.waitFor(text: "> PING again")
      try terminal.send("C-z")
      try terminal.waitFor("the job stopped and the shell back") { screen in
        screen.contains("Stopped") && TerminalSession.lines(screen).last?.hasSuffix("shell$") == true
      }
      try terminal.type("fg")
      try terminal.send("Enter")
      try terminal.waitFor("the line drawn again below fg") { screen in
        let lines = TerminalSession.lines(screen)
        guard let fg = lines.lastIndex(where: { $0.hasSuffix("shell$ fg") }) else { return false }
        return lines[(fg + 1)...].contains { $0.hasSuffix("127.0.0.1:\(server.port)> PING again") }
      }
      try terminal.send("Enter")
      try terminal.waitForPrompt(after: "OK again")
    }
  }
}

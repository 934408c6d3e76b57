import Foundation
import Testing

/// A `:` word the client does not know (tmux): answered by the client, never sent.
@Suite("An unknown : command is answered by the client, with a suggestion", .timeLimit(.minutes(30)))
struct UnknownLocalCommandTerminalTests {
  @Test(":jsn says it is unknown, suggests :json, and the server never sees it")
  func answeredLocally() throws {
    try withTerminal { server, terminal in
      try terminal.start(["-p", "\(server.port)"])
      try terminal.waitFor(text: ">")
      try terminal.type(":jsn on")
      try terminal.send("Enter")
      let screen = try terminal.waitForPrompt(after: "did you mean :json?")
      #expect(screen.contains("unknown client command ':jsn' (not sent); did you mean :json?"), "\(screen)")
      // The list may wrap at a space, indented; its words joined again, it is whole.
      let joined = screen.split(whereSeparator: \.isWhitespace).joined(separator: " ")
      #expect(
        joined.contains(
          "Client commands: :clear :connect :help :history :json :next :prev :timing :pager :top :watch :wide :! :quit"),
        "\(screen)")
      #expect(!screen.contains("ERR"), "\(screen)")
      try terminal.type(":frobnicate")
      try terminal.send("Enter")
      let second = try terminal.waitForPrompt(after: "client commands:")
      #expect(second.contains("unknown client command ':frobnicate' (not sent); client commands: :clear"), "\(second)")
    }
  }

  @Test("psql's \\timing and a shell's !ls are pointed to :timing and :!ls, not sent")
  func otherToolsSpellings() throws {
    try withTerminal { server, terminal in
      try terminal.start(["-p", "\(server.port)"])
      try terminal.waitFor(text: ">")
      try terminal.type("\\timing on")
      try terminal.send("Enter")
      let psql = try terminal.waitForPrompt(after: "as :timing on")
      #expect(psql.contains("'\\timing on' was not sent: the client's commands start with ':', as :timing on"))
      try terminal.type("!ls")
      try terminal.send("Enter")
      let shell = try terminal.waitForPrompt(after: "as in :!ls")
      #expect(shell.contains("'!ls' was not sent: a shell command is :!ls"), "\(shell)")
      #expect(!shell.contains("ERR"), "\(shell)")
    }
  }
}

import Foundation
import Testing

/// The server closing an idle REPL (tmux): said once.
@Suite("The idle-timeout notice is printed once", .timeLimit(.minutes(30)))
struct IdleNoticeTerminalTests {
  @Test("closed for idleness: one line says so and that the next command reconnects")
  func saidOnce() throws {
    try withTerminal(try ShopServer(idleTimeout: 1)) { server, terminal in
      try terminal.start(["-p", "\(server.port)"])
      try terminal.waitFor(text: "stockroom 127.0.0.1:\(server.port)>")
      let closed = try terminal.waitFor(text: "not connected>")
      let lines = TerminalSession.lines(closed)
      let notices = lines.filter { $0.contains("next command") }
      #expect(notices.count == 1, "said \(notices.count) times:\n\(closed)")
      #expect(notices.first?.contains("the server closed this idle connection after 1 s") == true, "\(closed)")
      #expect(!lines.contains { $0.contains("lost") }, "\(closed)")
    }
  }
}

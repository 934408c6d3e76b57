import Foundation
import Testing

/// The REPL's first line in a real terminal (tmux).
@Suite("The REPL greets with a banner", .timeLimit(.minutes(30)))
struct BannerTerminalTests {
  @Test("a banner names the server and where to start, then the prompt")
  func banner() throws {
    try withTerminal { server, terminal in
      try terminal.start(["-p", "\(server.port)"])
      let screen = try terminal.waitForPrompt(after: "HELP lists the commands")
      let banner = try #require(TerminalSession.lines(screen).first { $0.contains("HELP lists the commands") })
      #expect(banner.hasPrefix("Connected to 127.0.0.1:\(server.port) (stockroomd "), "\(banner)")
      #expect(banner.contains("Tab completes, Ctrl-D leaves"), "\(banner)")
    }
  }
}

import Foundation
import Testing

/// The pager's state said plainly (tmux): `:pager` alone reports, and a pager that cannot be
/// started is said to be so.
@Suite(":pager alone reports; a missing $PAGER is said, not dropped", .timeLimit(.minutes(30)))
struct PagerReportTerminalTests {
  @Test(":pager alone says pager on, twice, and changes nothing")
  func reportsWithoutToggling() throws {
    try withTerminal { server, terminal in
      try terminal.start(["-p", "\(server.port)"])
      try terminal.waitFor(text: ">")
      for count in 1...2 {
        try terminal.type(":pager")
        try terminal.send("Enter")
        try terminal.waitFor("report \(count)") { screen in
          let lines = TerminalSession.lines(screen)
          return lines.filter { $0.hasPrefix("pager on") }.count == count && lines.last?.hasSuffix(">") == true
        }
      }
      #expect(!TerminalSession.lines(try terminal.screen()).contains { $0.hasPrefix("pager off") })
    }
  }

  @Test("a $PAGER that does not exist: the reply is printed and a note says the pager failed")
  func missingPager() throws {
    try withTerminal { server, terminal in
      try terminal.start(["-p", "\(server.port)"], environment: ["PAGER": "/nonexistent/pager"], rows: 12)
      try terminal.waitFor(text: ">")
      try terminal.type("STOCK")
      try terminal.send("Enter")
      try terminal.waitForPrompt(after: "could not be started")
      #expect(try terminal.screen().contains("the pager '/nonexistent/pager' could not be started"))
    }
  }
}

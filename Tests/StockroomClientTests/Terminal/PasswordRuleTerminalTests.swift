import Foundation
import Testing

/// A new password checked by the client before it is asked for again (tmux).
@Suite("A too-short new password is refused at once, not after typing it twice", .timeLimit(.minutes(30)))
struct PasswordRuleTerminalTests {
  @Test("REGISTER with a 5-byte password: refused after the first prompt, nothing sent, no Again:")
  func shortPasswordRefusedLocally() throws {
    try withTerminal { server, terminal in
      try terminal.start(["-p", "\(server.port)"])
      try terminal.waitFor(text: "stockroom 127.0.0.1:\(server.port)>")
      try terminal.type("REGISTER erin")
      try terminal.send("Enter")
      try terminal.waitFor(text: "Password for erin:")
      try terminal.type("short")
      try terminal.send("Enter")
      let screen = try terminal.waitForPrompt(after: "a password needs at least 8 bytes; nothing sent")
      #expect(!screen.contains("Again:"), "\(screen)")
      #expect(!screen.contains("ERR "), "sent to the server: \(screen)")
      #expect(!screen.contains("short"))
    }
  }
}

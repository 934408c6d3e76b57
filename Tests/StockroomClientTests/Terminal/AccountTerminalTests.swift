import Foundation
import Testing

/// Logging in from the REPL in a real terminal: the password prompt, failed logins, LOGIN and
/// LOGOUT typed at the prompt. Each test owns its tmux server and shop.
@Suite("Accounts in the REPL (tmux)", .timeLimit(.minutes(30)))
struct AccountTerminalTests {
  /// True when the password is anywhere on the screen; a boolean, so a failing expectation
  /// does not print it.
  private static func shows(_ screen: String) -> Bool { screen.contains(ShopServer.password) }

  @Test("-u without a password asks for it; what is typed never shows, and the prompt then names alice")
  func passwordPromptDoesNotEcho() throws {
    let server = try ShopServer()
    try server.register("alice")
    let terminal = try TerminalSession()
    terminal.secrets = [ShopServer.password]
    defer { terminal.stop() }
    try terminal.start(["-p", "\(server.port)", "-u", "alice"])
    try terminal.waitFor(text: "Password for alice:")
    try terminal.type(ShopServer.password)
    try terminal.send("Enter")
    // The login succeeding shows every key was read; echoed keys would be on screen by then.
    try terminal.waitFor(text: "stockroom alice@127.0.0.1:\(server.port)>")
    try terminal.type("WHOAMI")
    try terminal.send("Enter")
    let screen = try terminal.waitForPrompt(after: "OK alice role=customer")
    #expect(!Self.shows(screen), "the password showed on screen")
    #expect(TerminalSession.lines(screen).first == "Password for alice:", "something was echoed after the prompt")
  }

  @Test("Ctrl-C at the password prompt exits 130 and leaves the terminal echoing")
  func interruptRestoresEcho() throws {
    let terminal = try TerminalSession()
    defer { terminal.stop() }
    // Nothing listens on port 1: the prompt comes before connecting.
    let report = "if stty -a | grep -q -- ' -echo '; then echo '[echo off]'; else echo '[echo on]'; fi"
    try terminal.start(["-p", "1", "-u", "alice"], afterwards: report)
    try terminal.waitFor(text: "Password for alice:")
    try terminal.type("half a pass")
    try terminal.send("C-c")
    let screen = try terminal.waitFor(text: "[echo ")
    #expect(screen.contains("[stockroom exited with status 130]"), "\(screen)")
    #expect(screen.contains("[echo on]"), "\(screen)")
    #expect(!screen.contains("half a pass"))
  }

  @Test("Ctrl-D at the password prompt: no password, exit 2, echo back on")
  func endOfInputRestoresEcho() throws {
    let terminal = try TerminalSession()
    defer { terminal.stop() }
    let report = "if stty -a | grep -q -- ' -echo '; then echo '[echo off]'; else echo '[echo on]'; fi"
    try terminal.start(["-p", "1", "-u", "alice"], afterwards: report)
    try terminal.waitFor(text: "Password for alice:")
    try terminal.send("C-d")
    let screen = try terminal.waitFor(text: "[echo ")
    #expect(screen.contains("no password given"), "\(screen)")
    #expect(screen.contains("[stockroom exited with status 2]"), "\(screen)")
    #expect(screen.contains("[echo on]"), "\(screen)")
  }

  @Test("killed at the password prompt (SIGTERM from elsewhere): echo is back on all the same")
  func killRestoresEcho() throws {
    let terminal = try TerminalSession()
    defer { terminal.stop() }
    let report = "if stty -a | grep -q -- ' -echo '; then echo '[echo off]'; else echo '[echo on]'; fi"
    try terminal.start(["-p", "1", "-u", "alice"], afterwards: report)
    try terminal.waitFor(text: "Password for alice:")
    try terminal.signalProgram(SIGTERM)
    let screen = try terminal.waitFor(text: "[echo ")
    #expect(screen.contains("[stockroom exited with status 143]"), "\(screen)")
    #expect(screen.contains("[echo on]"), "\(screen)")
  }

  @Test("a -u name the server refuses: the prompt is the guest's, as WHOAMI says")
  func refusedUserNamePrompt() throws {
    let server = try ShopServer()
    let terminal = try TerminalSession()
    terminal.secrets = [ShopServer.password]
    defer { terminal.stop() }
    try terminal.start(
      ["-p", "\(server.port)", "-u", "kim minji"], environment: ["STOCKROOM_PASSWORD": ShopServer.password])
    let guest = "stockroom 127.0.0.1:\(server.port)>"
    let first = try terminal.waitFor(text: guest)
    #expect(first.contains("login as kim minji failed"), "\(first)")
    #expect(!first.contains("kim minji@"), "\(first)")
    try terminal.type("WHOAMI")
    try terminal.send("Enter")
    let who = try terminal.waitForPrompt(after: "guest")
    #expect(TerminalSession.lines(who).last == guest, "\(who)")
  }

  @Test("a wrong password at start: the REPL says so and goes on as a guest; LOGIN asks, LOGOUT returns")
  func failedLoginThenLogin() throws {
    let server = try ShopServer()
    try server.register("alice")
    let terminal = try TerminalSession()
    terminal.secrets = [ShopServer.password]
    defer { terminal.stop() }
    try terminal.start(
      ["-p", "\(server.port)", "-u", "alice"], environment: ["STOCKROOM_PASSWORD": "wrong " + ShopServer.password])
    let guest = "stockroom 127.0.0.1:\(server.port)>"
    let first = try terminal.waitFor(text: guest)
    #expect(first.contains("login as alice failed: ERR AUTH"), "\(first)")
    #expect(first.contains("continuing as a guest"))
    // LOGIN with the password left off asks for it, with echo off.
    try terminal.type("LOGIN alice")
    try terminal.send("Enter")
    try terminal.waitFor(text: "Password for alice:")
    try terminal.type(ShopServer.password)
    try terminal.send("Enter")
    let loggedIn = try terminal.waitForPrompt(after: "OK login alice role=customer")
    #expect(TerminalSession.lines(loggedIn).last?.hasPrefix("stockroom alice@127.0.0.1:") == true)
    #expect(!Self.shows(loggedIn), "the password showed on screen")
    try terminal.type("LOGOUT")
    try terminal.send("Enter")
    let out = try terminal.waitForPrompt(after: "OK logout")
    #expect(TerminalSession.lines(out).last == guest)
    // Neither LOGIN line reached the history file.
    try terminal.send("C-d")
    try terminal.waitFor(text: "[stockroom exited with status 0]")
    let history = (try? String(contentsOfFile: terminal.historyFile, encoding: .utf8)) ?? ""
    #expect(!history.contains("LOGIN"))
    #expect(history.contains("LOGOUT"))
  }

  @Test("REGISTER without a password asks twice; two different answers send nothing")
  func registerAsksTwice() throws {
    let server = try ShopServer()
    let terminal = try TerminalSession()
    terminal.secrets = [ShopServer.password]
    defer { terminal.stop() }
    try terminal.start(["-p", "\(server.port)"])
    try terminal.waitFor(text: "stockroom 127.0.0.1:\(server.port)>")
    try terminal.type("REGISTER dave")
    try terminal.send("Enter")
    try terminal.waitFor(text: "Password for dave:")
    try terminal.type(ShopServer.password)
    try terminal.send("Enter")
    try terminal.waitFor(text: "Again:")
    try terminal.type("something else")
    try terminal.send("Enter")
    try terminal.waitForPrompt(after: "the two passwords differ; nothing sent")
    try terminal.type("REGISTER dave")
    try terminal.send("Enter")
    try terminal.waitFor("a second password prompt") { $0.components(separatedBy: "Password for dave:").count == 3 }
    try terminal.type(ShopServer.password)
    try terminal.send("Enter")
    try terminal.waitFor("a second Again") { $0.components(separatedBy: "Again:").count == 3 }
    try terminal.type(ShopServer.password)
    try terminal.send("Enter")
    let screen = try terminal.waitForPrompt(after: "OK login dave role=customer")
    #expect(TerminalSession.lines(screen).last?.hasPrefix("stockroom dave@") == true)
    #expect(!Self.shows(screen), "the password showed on screen")
    #expect(!screen.contains("something else"))
  }
}

import Foundation
import StockroomProtocol
import StockroomTransport
import Testing

@testable import StockroomClient

/// `stockroom top` in a real terminal against a real server: each test owns its tmux server
/// and its shop.
@Suite("The live board in a real terminal (tmux)", .timeLimit(.minutes(30)))
struct BoardTerminalTests {
  /// The terminal modes the board turns off, as `stty -a` names them; a board that did not put
  /// them back leaves one of them with a `-` in front. The shell then stays (`cat`): tmux
  /// 3.3 drops lines of a pane that dies after using the alternate screen, and a dead pane
  /// reports no cursor.
  private static let sttyCheck =
    "stty -a | tr ' ;' '\\n\\n' | grep -E '^-?(icanon|echo|isig|ixon|icrnl)$' | tr '\\n' ' '; echo '[stty done]'; exec cat"

  /// Every stocked item's display name, as the board shows it, from the server itself.
  private func itemNames(port: UInt16) throws -> [String] {
    let connection = try ServerLink.open(host: "127.0.0.1", port: port)
    defer { connection.close() }
    func request(_ line: String) throws -> Reply {
      try connection.send(line)
      while true {
        if case .reply(let reply) = try connection.nextItem() { return reply }
      }
    }
    let names = Dictionary(
      try request("NAMES").rows.compactMap { row in row.id.map { ($0, row["name"] ?? $0) } },
      uniquingKeysWith: { first, _ in first })
    return try request("STOCK").rows.compactMap { $0.id.flatMap { names[$0] } }
  }

  /// The screen line showing `name`'s level, e.g. `Banana   8  ███...`.
  private static func level(of name: String, in screen: String) -> Int? {
    for line in TerminalSession.lines(screen) {
      let words = line.split(separator: " ")
      guard words.first.map(String.init) == name, words.count > 1 else { continue }
      return Int(words[1])
    }
    return nil
  }

  private func expectRestored(_ terminal: TerminalSession, status: Int32) throws {
    let screen = try terminal.waitFor(text: "[stty done]")
    #expect(screen.contains("[stockroom exited with status \(status)]"), "\(screen)")
    #expect(!screen.contains("stockroom top ·"), "the board is still on the main screen: \(screen)")
    #expect(!screen.contains("-icanon") && !screen.contains("-echo") && !screen.contains("-isig"), "\(screen)")
    #expect(screen.contains("icanon") && screen.contains("isig"), "\(screen)")
    #expect(try terminal.pane("#{alternate_on}") == "0", "still on the alternate screen")
    #expect(try terminal.pane("#{cursor_flag}") == "1", "the cursor was left hidden")
  }

  @Test("the board shows every item on the alternate screen, and q restores the terminal exactly")
  func everyItemThenQuit() throws {
    let server = try ShopServer()
    let names = try itemNames(port: server.port)
    #expect(names.count >= 20)
    let terminal = try TerminalSession()
    defer { terminal.stop() }
    try terminal.start(["-p", "\(server.port)", "top"], afterwards: Self.sttyCheck)
    let screen = try terminal.waitFor("every item on the board") { screen in
      names.allSatisfy { Self.level(of: $0, in: screen) != nil }
    }
    #expect(screen.contains("stockroom top · 127.0.0.1:\(server.port) · guest"), "\(screen)")
    #expect(try terminal.pane("#{alternate_on}") == "1")
    #expect(try terminal.pane("#{cursor_flag}") == "0")
    try terminal.send("q")
    try expectRestored(terminal, status: 0)
  }

  @Test("an order by another client moves the level and shows in the recent orders")
  func orderMovesLevel() throws {
    try withTerminal { server, terminal in
      // The shell stays after, for the reason `sttyCheck` gives.
      try terminal.start(["-p", "\(server.port)", "top"], afterwards: "exec cat")
      try terminal.waitFor("banana at 10") { Self.level(of: "Banana", in: $0) == 10 }
      try terminal.waitFor(text: "none yet")
      let other = try ClientProcess.run(["-p", "\(server.port)", "ORDER", "banana_juice", "2", "kiwi"])
      #expect(other.status == 0, "\(other.error)")
      let screen = try terminal.waitFor("banana at 6, kiwi at 9 and order 1 listed") { screen in
        Self.level(of: "Banana", in: screen) == 6 && Self.level(of: "Kiwi", in: screen) == 9
          && screen.contains("#1  Banana -4, Kiwi -1")
      }
      #expect(screen.contains("1 order seen"), "\(screen)")
      #expect(!screen.contains(" by "), "a guest's board named who ordered: \(screen)")
      try terminal.send("q")
      try terminal.waitFor(text: "[stockroom exited with status 0]")
    }
  }

  @Test("a burst of orders is drawn in a few frames and the board ends on the last levels")
  func burstOfOrders() throws {
    try withTerminal { server, terminal in
      try terminal.start(["-p", "\(server.port)", "top"])
      try terminal.waitFor("the board") { Self.level(of: "Kiwi", in: $0) == 10 }
      let burst = String(repeating: "ORDER banana\nORDER kiwi\n", count: 10)
      let other = try ClientProcess.run(["-p", "\(server.port)", "-e"], input: burst)
      #expect(other.status == 0, "\(other.error)")
      let screen = try terminal.waitFor("both at 0 after 20 orders") { screen in
        Self.level(of: "Banana", in: screen) == 0 && Self.level(of: "Kiwi", in: screen) == 0
          && screen.contains("20 orders seen")
      }
      #expect(screen.contains("#20  Kiwi -1"), "\(screen)")
    }
  }

  @Test("a resized window redraws to its new size, dropping the items that do not fit and saying how many")
  func resizeRedraws() throws {
    let server = try ShopServer()
    let names = try itemNames(port: server.port)
    let terminal = try TerminalSession()
    defer { terminal.stop() }
    try terminal.start(["-p", "\(server.port)", "top"])
    try terminal.waitFor("every item") { screen in names.allSatisfy { Self.level(of: $0, in: screen) != nil } }
    try terminal.resize(columns: 60, rows: 16)
    let small = try terminal.waitFor(text: "more not shown")
    let lines = TerminalSession.lines(small)
    #expect(lines.count <= 16, "\(small)")
    let shown = names.filter { Self.level(of: $0, in: small) != nil }
    let notice = try #require(lines.first { $0.contains("more not shown") })
    #expect(notice.contains("… \(names.count - shown.count) more not shown"), "\(small)")
    #expect(shown.count >= 3 && shown.count < names.count, "\(small)")
    #expect(small.contains("RECENT ORDERS"), "\(small)")
    try terminal.resize(columns: 120, rows: 40)
    try terminal.waitFor("every item again") { screen in
      !screen.contains("more not shown") && names.allSatisfy { Self.level(of: $0, in: screen) != nil }
    }
  }

  @Test("Ctrl-C and SIGTERM leave the board as q does, with the terminal restored")
  func interruptAndTerminate() throws {
    let server = try ShopServer()
    for (signal, status) in [(nil, Int32(130)), (SIGTERM, 143)] as [(Int32?, Int32)] {
      let terminal = try TerminalSession()
      defer { terminal.stop() }
      try terminal.start(["-p", "\(server.port)", "top"], afterwards: Self.sttyCheck)
      try terminal.waitFor("the board") { Self.level(of: "Banana", in: $0) == 10 }
      if let signal { try terminal.signalProgram(signal) } else { try terminal.send("C-c") }
      try expectRestored(terminal, status: status)
    }
  }

  @Test("when the server goes away the board says so, reconnects by itself and resyncs the levels")
  func serverGoesAwayAndComesBack() throws {
    var server: ShopServer? = try ShopServer()
    let port = try #require(server?.port)
    let terminal = try TerminalSession()
    defer { terminal.stop() }
    try terminal.start(["-p", "\(port)", "top"])
    try terminal.waitFor("the board") { Self.level(of: "Banana", in: $0) == 10 }
    let order = try ClientProcess.run(["-p", "\(port)", "ORDER", "banana_juice"])
    #expect(order.status == 0, "\(order.error)")
    try terminal.waitFor("banana at 8") { Self.level(of: "Banana", in: $0) == 8 }
    server?.server.stop()
    server = nil
    let down = try terminal.waitFor(text: "server went away")
    #expect(down.contains("reconnecting in"), "\(down)")

    // A fresh shop on the same port: banana is back at 10, which only STOCK can tell the board.
    let second = try ShopServer(port: port)
    try terminal.waitFor("reconnected, banana resynced to 10") { screen in
      screen.contains("reconnected to 127.0.0.1:\(port)") && Self.level(of: "Banana", in: screen) == 10
        && !screen.contains("server went away")
    }
    // Nothing typed: the new order reaches the board because it said WATCH again.
    let again = try ClientProcess.run(["-p", "\(second.port)", "ORDER", "kiwi", "3"])
    #expect(again.status == 0, "\(again.error)")
    try terminal.waitFor("kiwi at 7") { Self.level(of: "Kiwi", in: $0) == 7 }
  }

  @Test("-u logs the board in as the REPL does: staff see who is connected by name, customers only counts")
  func loginAndWhoIsConnected() throws {
    let server = try ShopServer()
    try server.addAccount("alice", role: .staff)
    try server.register("bob")
    try server.register("carol")
    // bob stays connected while the boards look.
    let bob = try ServerLink.open(host: "127.0.0.1", port: server.port)
    defer { bob.close() }
    try bob.send(Credentials(name: "bob", password: Secret(ShopServer.password)).loginLine)
    while true {
      if case .reply(let reply) = try bob.nextItem() {
        #expect(reply.isOK, "\(reply.lines)")
        break
      }
    }
    let staff = try TerminalSession()
    staff.secrets = [ShopServer.password]
    defer { staff.stop() }
    try staff.start(
      ["-p", "\(server.port)", "-u", "alice", "top"], environment: ["STOCKROOM_PASSWORD": ShopServer.password])
    let seen = try staff.waitFor(text: "2 connected: alice, bob")
    #expect(seen.contains("· alice (staff)"), "\(seen)")
    let passwordSeen = seen.contains(ShopServer.password)
    #expect(!passwordSeen, "the password is on the screen")

    let customer = try TerminalSession()
    defer { customer.stop() }
    // The password typed at the prompt, as for the REPL, before the board takes the screen.
    try customer.start(["-p", "\(server.port)", "-u", "carol", "top"])
    try customer.waitFor(text: "Password for carol:")
    try customer.type(ShopServer.password)
    try customer.send("Enter")
    let counted = try customer.waitFor(text: "3 connected (0 guests, 3 logged in)")
    #expect(counted.contains("· carol (customer)"), "\(counted)")
    #expect(!counted.contains("bob") && !counted.contains("alice"), "a customer saw names: \(counted)")
    let passwordCounted = counted.contains(ShopServer.password)
    #expect(!passwordCounted, "the password is in the output")
  }

  @Test(":top in the REPL shows the board, and q brings the prompt back")
  func replTop() throws {
    try withTerminal { server, terminal in
      try terminal.start(["-p", "\(server.port)"])
      try terminal.waitFor(text: "stockroom 127.0.0.1:\(server.port)>")
      try terminal.type(":top")
      try terminal.send("Enter")
      try terminal.waitFor("the board") { Self.level(of: "Banana", in: $0) == 10 }
      #expect(try terminal.pane("#{alternate_on}") == "1")
      try terminal.send("q")
      try terminal.waitFor("the prompt again") { screen in
        !screen.contains("stockroom top ·")
          && TerminalSession.lines(screen).last == "stockroom 127.0.0.1:\(server.port)>"
      }
      #expect(try terminal.pane("#{alternate_on}") == "0")
      try terminal.type("STOCK kiwi")
      try terminal.send("Enter")
      try terminal.waitForPrompt(after: "OK 1 item")
    }
  }

  @Test("top with stdout not a terminal is refused in one line")
  func refusedWithoutTerminal() throws {
    let server = try ShopServer()
    let result = try ClientProcess.run(["-p", "\(server.port)", "top"])
    #expect(result.status == 1)
    #expect(result.output.isEmpty)
    #expect(result.error.hasPrefix("stockroom: top "), "\(result.error)")
    #expect(result.error.contains("needs a terminal"), "\(result.error)")
    #expect(result.error.split(separator: "\n").count == 1, "\(result.error)")
  }
}

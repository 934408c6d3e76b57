import Foundation
import Testing

/// `stockroom top` laid out for the windows people have (tmux): 80x24 first, and 60 columns.
@Suite("The board fits 80x24 and 60 columns, and draws bars as STOCK does", .timeLimit(.minutes(30)))
struct BoardFitTerminalTests {
  private func order(_ server: ShopServer, _ arguments: [String], user: String? = nil) throws {
    let login = user.map { ["-u", $0] } ?? []
    let run = try ClientProcess.run(
      ["-p", "\(server.port)"] + login + arguments, environment: ["STOCKROOM_PASSWORD": ShopServer.password])
    #expect(run.status == 0, "\(arguments): \(run.output)\(run.error)")
  }

  @Test("at 80x24 the board keeps five recent orders in view, stock rows giving way")
  func fiveOrdersAt80x24() throws {
    try withTerminal { server, terminal in
      try terminal.start(["-p", "\(server.port)", "top"], width: 80, rows: 24)
      try terminal.waitFor(text: "RECENT ORDERS")
      for _ in 1...6 { try order(server, ["ORDER", "kiwi"]) }
      let screen = try terminal.waitFor("the sixth order on the board") { $0.contains("#6") }
      let lines = TerminalSession.lines(screen)
      let orders = lines.filter { $0.contains("  #") }
      #expect(orders.count >= 5, "only \(orders.count) orders shown:\n\(screen)")
      #expect(lines.first?.hasSuffix("q quits") == true, "\(screen)")
      #expect(lines.contains { $0.contains("more not shown") }, "\(screen)")
    }
  }

  @Test("at 80x24 with three orders no row stays blank while items are left out")
  func everyRowUsedAt80x24() throws {
    try withTerminal { server, terminal in
      try terminal.start(["-p", "\(server.port)", "top"], width: 80, rows: 24)
      try terminal.waitFor(text: "RECENT ORDERS")
      for _ in 1...3 { try order(server, ["ORDER", "kiwi"]) }
      let screen = try terminal.waitFor("the third order on the board") { $0.contains("#3") }
      let lines = TerminalSession.lines(screen)
      #expect(lines.contains { $0.contains("more not shown") }, "\(screen)")
      #expect(lines.count == 24, "\(24 - lines.count) rows left blank:\n\(screen)")
    }
  }

  @Test("at 60 columns the key hint and the whole summary stay on screen")
  func sixtyColumns() throws {
    try withTerminal { server, terminal in
      try terminal.start(["-p", "\(server.port)", "top"], width: 60, rows: 24)
      let screen = try terminal.waitFor(text: "1 watching")
      let lines = TerminalSession.lines(screen)
      #expect(lines.first?.hasSuffix("q quits") == true, "\(screen)")
      #expect(screen.contains("1 connected (1 guest, 0 logged in)"), "\(screen)")
    }
  }

  @Test("at 60 columns the retry line is broken onto a second line, not cut")
  func retryLineAtSixty() throws {
    var server: ShopServer? = try ShopServer()
    let port = try #require(server?.port)
    let terminal = try TerminalSession()
    defer { terminal.stop() }
    try terminal.start(["-p", "\(port)", "top"], width: 60, rows: 24)
    try terminal.waitFor(text: "RECENT ORDERS")
    server?.server.stop()
    server = nil
    let down = try terminal.waitFor(text: "server went away")
    #expect(down.contains("closed by the server)") || down.contains("lost:"), "\(down)")
    try terminal.waitFor(text: "reconnecting in")
  }

  @Test("the connected count says connections throughout: one account on two is '2 logged in, 1 account'")
  func connectionsCounted() throws {
    let server = try ShopServer(accounts: ["carol": .customer])
    let environment = ["STOCKROOM_PASSWORD": ShopServer.password]
    let first = try TerminalSession()
    defer { first.stop() }
    try first.start(["-p", "\(server.port)", "-u", "carol", "top"], environment: environment)
    try first.waitFor(text: "1 connected (0 guests, 1 logged in)")
    let second = try TerminalSession()
    defer { second.stop() }
    try second.start(["-p", "\(server.port)", "-u", "carol", "top"], environment: environment)
    try first.waitFor(text: "2 connected (0 guests, 2 logged in, 1 account)")
  }

  @Test("an item restocked before the board opened is drawn full, as STOCK draws it")
  func barsAsStockDrawsThem() throws {
    let server = try ShopServer(accounts: ["alice": .staff])
    try order(server, ["ADD", "kiwi", "10"], user: "alice")
    let terminal = try TerminalSession()
    defer { terminal.stop() }
    try terminal.start(["-p", "\(server.port)", "top"], width: 80, rows: 40)
    try terminal.waitFor(text: "RECENT ORDERS")
    try order(server, ["ORDER", "kiwi", "2"])
    let screen = try terminal.waitFor(text: "#1")
    let row = try #require(
      TerminalSession.lines(screen).first { $0.split(separator: " ").first == "Kiwi" }, "\(screen)")
    #expect(row.contains(" 18 ") && row.contains("██████████") && !row.contains("░"), "'\(row)'\n\(screen)")
    // And STOCK draws the same bar.
    let stock = try ClientProcess.run(["-p", "\(server.port)", "--human", "STOCK", "kiwi"])
    #expect(stock.output.contains("18  ██████████"), "\(stock.output)")
  }
}

import Foundation
import Testing

/// What people see from the real `stockroom` against a real server: widths, money, bars and
/// dates in the user's zone and language.
@Suite("Human output from the real client", .timeLimit(.minutes(30)))
struct HumanOutputTests {
  @Test("--human LIST dishes fits 80 columns and keeps each dish's regular and sale price")
  func dishesFitEightyColumns() throws {
    let server = try ShopServer()
    let result = try ClientProcess.run(["-p", "\(server.port)", "--human", "LIST", "dishes"])
    #expect(result.status == 0)
    #expect(result.lines.allSatisfy { $0.count <= 80 }, "\(result.output)")
    let jinmichae = try #require(result.lines.first { $0.hasPrefix("jinmichae_bokkeum") }, "\(result.output)")
    #expect(jinmichae.contains("₩5,000") && jinmichae.contains("₩6,000"), "\(jinmichae)")
    #expect(!result.output.contains("price_text") && !result.output.contains("final_price"))
    #expect(result.lines.last == "OK 15 dishes", "\(result.output)")
  }

  @Test("HELP from a script, for people, is one table: the groups (kind=group) follow the commands (no kind)")
  func helpFromAScriptIsOneTable() throws {
    let server = try ShopServer()
    // From stdin HELP goes to the server, and its reply is rendered as any other.
    let result = try ClientProcess.run(["-p", "\(server.port)", "--human"], input: "HELP\n")
    #expect(result.status == 0)
    let headers = result.lines.filter { $0.hasPrefix("id ") }
    #expect(headers.count == 1, "a second table began: \(result.output)")
    #expect(!result.lines.contains(""), "\(result.output)")
    let command = try #require(result.lines.firstIndex { $0.hasPrefix("PING ") }, "\(result.output)")
    let group = try #require(result.lines.firstIndex { $0.hasPrefix("@connection ") }, "\(result.output)")
    #expect(command < group, "\(result.output)")
  }

  @Test("a bar is drawn against the starting level: banana at 2 of 10 is short whatever else is listed")
  func barsAgainstTheStart() throws {
    let server = try ShopServer()
    #expect(try ClientProcess.run(["-p", "\(server.port)", "ORDER", "banana_juice", "4"]).status == 0)
    let alone = try ClientProcess.run(["-p", "\(server.port)", "--human", "STOCK", "banana"])
    // The name follows, from NAMES, as in the REPL.
    #expect(alone.lines.contains { $0.hasPrefix("banana  fruit      2  ██░░░░░░░░") }, "\(alone.output)")
    #expect(alone.lines.last == "OK 1 item", "\(alone.output)")
    let listed = try ClientProcess.run(["-p", "\(server.port)", "--human", "LIST", "fruits"])
    let banana = try #require(listed.lines.first { $0.hasPrefix("banana") }, "\(listed.output)")
    #expect(banana.hasSuffix("2  ██░░░░░░░░"), "\(banana)")
  }

  @Test("EXPO for people: visitors once, no protocol leftovers")
  func expo() throws {
    let server = try ShopServer()
    let result = try ClientProcess.run(["-p", "\(server.port)", "--human", "EXPO"])
    #expect(result.output.contains("48,130,300") && !result.output.contains("visitors_text"), "\(result.output)")
    #expect(!result.output.contains("OK LIST exhibits for the exhibits"), "\(result.output)")
  }

  /// The local time of `iso` in `zone`, as `HH:mm`, worked out here with the calendar.
  /// Hour, minute and month of the ISO 8601 time `iso` in `zone`.
  private func local(_ iso: String, zone: String) throws -> DateComponents {
    let date = try #require(ISO8601DateFormatter().date(from: iso))
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = try #require(TimeZone(identifier: zone))
    return calendar.dateComponents([.hour, .minute, .month], from: date)
  }

  private func clock(_ iso: String, zone: String) throws -> String {
    let parts = try local(iso, zone: zone)
    return String(format: "%02d:%02d", parts.hour!, parts.minute!)
  }

  @Test("DIARY SHOW shows the time in TZ and month names in LANG: Seoul and New York differ, German is German")
  func datesFollowTZAndLANG() throws {
    let server = try ShopServer()
    try server.register("minji")
    let login = ["-p", "\(server.port)", "-u", "minji"]
    let secret = ["STOCKROOM_PASSWORD": ShopServer.password]
    let made = try ClientProcess.run(login + ["--raw", "DIARY", "NEW", "장보기", "딸기 16개"], environment: secret)
    let created = try #require(made.output.firstMatch(of: /created=(\S+)/)?.output.1, "\(made.output)")
    var shown: [String: String] = [:]
    for zone in ["Asia/Seoul", "America/New_York"] {
      let result = try ClientProcess.run(
        login + ["--human", "DIARY", "SHOW", "1"],
        environment: secret.merging(["TZ": zone, "LANG": "de_DE.UTF-8"]) { $1 })
      #expect(result.status == 0, "\(result.error)")
      let line = try #require(result.lines.first { $0.contains("created") }, "\(result.output)")
      #expect(line.contains(try clock(String(created), zone: zone)), "\(zone): \(line)")
      // The entry's month where it is shown, not this machine's: near a month's end Seoul and
      // New York are in different months.
      let month = try #require(try local(String(created), zone: zone).month)
      let german = ["Jan.", "Feb.", "März", "Apr.", "Mai", "Juni", "Juli", "Aug.", "Sept.", "Okt.", "Nov.", "Dez."]
      #expect(line.contains(german[month - 1]), "\(zone): \(line)")
      shown[zone] = line
    }
    #expect(shown["Asia/Seoul"] != shown["America/New_York"])
  }

  @Test("in a 60-column terminal LIST dishes side keeps prices with their discounts and says what it left out")
  func narrowTerminal() throws {
    try withTerminal { server, terminal in
      try terminal.start(["-p", "\(server.port)"], environment: ["NO_COLOR": "1"], width: 60)
      try terminal.waitFor(text: "stockroom 127.0.0.1:\(server.port)>")
      try terminal.type("LIST dishes side")
      try terminal.send("Enter")
      let screen = try terminal.waitForPrompt(after: "> LIST dishes side")
      let lines = TerminalSession.lines(screen)
      let jinmichae = try #require(lines.firstIndex { $0.hasPrefix("jinmichae_bokkeum") }, "\(screen)")
      // The price may wrap before its discount, but both prices are on the dish's lines.
      let price = lines[jinmichae] + " " + lines[jinmichae + 1]
      #expect(price.contains("₩5,000") && price.contains("₩6,000"), "\(screen)")
      #expect(lines[jinmichae].contains("14"), "\(screen)")
      // The REPL's own way to every column, where a one-shot command is told --wide.
      #expect(screen.contains("left out to fit 60 columns: stock bars; :wide on shows it"), "\(screen)")
      #expect(screen.contains("SHOW <id>"), "\(screen)")
    }
  }

  @Test("ORDER prints a receipt, LIST orders money, and DIARY SHOW the body's lines under the title")
  func receiptsOrdersAndBodies() throws {
    let server = try ShopServer()
    try server.register("minji")
    let login = ["-p", "\(server.port)", "-u", "minji", "--human"]
    let secret = ["STOCKROOM_PASSWORD": ShopServer.password]
    let order = try ClientProcess.run(login + ["ORDER", "kiwi", "2", "jeyuk", "3"], environment: secret)
    #expect(order.lines.first == "Order 1", "\(order.output)")
    #expect(
      order.lines.contains { $0.contains("3 ×") && $0.contains("₩10,200") && $0.contains("₩30,600") }, "\(order.output)"
    )
    #expect(order.lines.contains { $0.contains("Total") && $0.contains("₩30,600") }, "\(order.output)")
    // The shop's names, as in the REPL, with the id beside one it cannot be read from.
    #expect(order.lines.contains { $0.contains("3 × 제육볶음 (jeyuk_bokkeum)") }, "\(order.output)")
    #expect(order.output.contains("Stock left: Kiwi 8, 제육볶음 (jeyuk_bokkeum) 7"), "\(order.output)")
    let orders = try ClientProcess.run(login + ["LIST", "orders"], environment: secret)
    #expect(orders.output.contains("₩30,600") && !orders.output.contains("total_krw"), "\(orders.output)")
    #expect(orders.lines.last == "OK 1 order", "\(orders.output)")
    let made = try ClientProcess.run(
      login + ["DIARY", "NEW", "Market day", "Bought 딸기.\nSold out by noon."], environment: secret)
    #expect(made.status == 0, "\(made.output)")
    let entry = try ClientProcess.run(login + ["DIARY", "SHOW", "1"], environment: secret)
    #expect(
      Array(entry.lines.prefix(3)) == ["1  Market day", "    Bought 딸기.", "    Sold out by noon."], "\(entry.output)")
  }

  @Test("in a 120-column terminal LIST exhibits keeps summaries and STOCKTAKE its starting level and restocks")
  func wideTerminalKeepsWhatMatters() throws {
    let server = try ShopServer()
    try server.addAccount("bob", role: .staff)
    let terminal = try TerminalSession()
    defer { terminal.stop() }
    try terminal.start(
      ["-p", "\(server.port)", "-u", "bob"], environment: ["NO_COLOR": "1", "STOCKROOM_PASSWORD": ShopServer.password])
    try terminal.waitFor(text: "stockroom bob@127.0.0.1:\(server.port)>")
    try terminal.type("LIST exhibits")
    try terminal.send("Enter")
    let exhibits = try terminal.waitForPrompt(after: "> LIST exhibits")
    #expect(exhibits.contains("The iron tower from the 1889 fair"), "\(exhibits)")
    try terminal.type("ADD kiwi 5")
    try terminal.send("Enter")
    try terminal.waitForPrompt(after: "> ADD kiwi 5")
    try terminal.type("STOCKTAKE kiwi")
    try terminal.send("Enter")
    let ledger = try terminal.waitForPrompt(after: "> STOCKTAKE kiwi")
    #expect(ledger.contains("initial 10 + restocked 5"), "\(ledger)")
    let movement = TerminalSession.lines(ledger).contains { $0.contains("+5  restock") && $0.contains("bob") }
    #expect(movement, "\(ledger)")
  }

  @Test("--wide keeps every column however long the lines get")
  func wideKeepsEverything() throws {
    let server = try ShopServer()
    let wide = try ClientProcess.run(["-p", "\(server.port)", "--human", "--wide", "LIST", "exhibits"])
    #expect(wide.lines.contains { $0.contains("에펠탑") && $0.count > 80 }, "\(wide.output)")
    #expect(!wide.output.contains("left out to fit"), "\(wide.output)")
    let narrow = try ClientProcess.run(["-p", "\(server.port)", "--human", "LIST", "exhibits"])
    #expect(narrow.output.contains("left out to fit 80 columns: aliases; --wide shows it"), "\(narrow.output)")
    #expect(narrow.lines.allSatisfy { $0.count <= 80 }, "\(narrow.output)")
  }
}

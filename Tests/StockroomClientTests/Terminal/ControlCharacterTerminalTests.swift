import Foundation
import StockroomProtocol
import Testing

/// Another user's words (a product's description is its seller's) reach a buyer's terminal
/// with their control characters spelled out, never obeyed: a CR would draw a fake reply over
/// the real one. Programs reading a pipe still get the exact text.
@Suite("Server text never reaches the terminal as control characters (tmux)", .timeLimit(.minutes(30)))
struct ControlCharacterTerminalTests {
  /// What a seller would like a buyer's screen to say.
  static let fake = "OK order=999 total_krw=0 (paid, nothing owed)"
  /// CR, then NEL and a line separator, which the server keeps in a description as line breaks
  /// of other systems, and a tab.
  static let description = "Homemade jam.\r\(fake)\u{85}NEL\u{2028}LS\tTAB"
  /// How the client shows it.
  static let shown = #"Homemade jam.\rOK order=999 total_krw=0 (paid, nothing owed)\u{85}NEL\u{2028}LS\tTAB"#

  /// The seller's product, listed over the protocol; its id.
  private func listTrap(on server: ShopServer) throws -> String {
    try server.register("mallory")
    let replies = try server.send([
      "LOGIN mallory " + Quoting.quote(ShopServer.password),
      "PRODUCT NEW name=\"Fresh jam\" price=5000 stock=3 description="
        + Quoting.quote(Self.description, isValue: true),
    ])
    return try #require(replies.last?.statusFields["product"])
  }

  /// No CR, NEL, line separator or tab from the description among the bytes the terminal got:
  /// the line editor writes CR of its own, but never right before the seller's text.
  private static func expectNoRawControls(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(!text.contains("\r" + fake), "a raw CR before the fake reply")
    #expect(!text.unicodeScalars.contains("\u{85}"), "a raw NEL")
    #expect(!text.unicodeScalars.contains("\u{2028}"), "a raw line separator")
    #expect(!text.contains("\tTAB"), "a raw tab")
  }

  @Test("PRODUCT SHOW in the REPL shows a description's CR, NEL and tab spelled out")
  func replCard() throws {
    try withTerminal { server, terminal in
      let id = try listTrap(on: server)
      try terminal.start(["-p", "\(server.port)"])
      try terminal.waitFor(text: "127.0.0.1:\(server.port)>")
      let log = terminal.folder.appendingPathComponent("output.log").path
      try terminal.logOutput(to: log)
      try terminal.type("PRODUCT SHOW \(id)")
      try terminal.send("Enter")
      let screen = try terminal.waitForPrompt(after: "seller", from: "PRODUCT SHOW \(id)")
      let joined = try terminal.joinedScreen()
      #expect(joined.contains(Self.shown), "\(screen)")
      #expect(!TerminalSession.lines(screen).contains { $0.hasPrefix("OK order=999") }, "\(screen)")
      Self.expectNoRawControls(try terminal.waitForLog(at: log, "the card's bytes") { _ in true })
    }
  }

  @Test("a one-shot PRODUCT SHOW, and --csv, on a terminal show them spelled out too")
  func oneShotOnTerminal() throws {
    let server = try ShopServer()
    let id = try listTrap(on: server)
    for mode in ["--human", "--csv"] {
      let terminal = try TerminalSession()
      defer { terminal.stop() }
      try terminal.start(["-p", "\(server.port)", mode, "PRODUCT", "SHOW", id])
      let screen = try terminal.waitFor(text: "[stockroom exited with status 0]")
      #expect(try terminal.joinedScreen().contains(Self.shown), "\(mode): \(screen)")
    }
  }

  @Test("--csv and --json into a pipe keep the description exact")
  func pipesKeepTheData() throws {
    let server = try ShopServer()
    let id = try listTrap(on: server)
    let csv = try ClientProcess.run(["-p", "\(server.port)", "--csv", "PRODUCT", "SHOW", id])
    #expect(csv.status == 0, "\(csv.error)")
    #expect(csv.output.contains(Self.description), "\(csv.output.debugDescription)")
    let json = try ClientProcess.run(["-p", "\(server.port)", "--json", "PRODUCT", "SHOW", id])
    #expect(json.status == 0, "\(json.error)")
    #expect(json.output.contains(#"Homemade jam.\rOK order=999"#), "\(json.output)")
    // JSON's own escape for the NEL: the same string to a parser, and nothing a terminal obeys.
    #expect(json.output.contains(#"\u0085NEL\u2028LS\tTAB"#), "\(json.output)")
    let parsed = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
    let rows = try #require(parsed?["rows"] as? [[String: Any]])
    #expect(rows.first?["description"] as? String == Self.description)
  }
}

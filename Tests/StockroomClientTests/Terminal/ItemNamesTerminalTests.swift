import Foundation
import Testing

/// The REPL names things as the shop does (tmux): a receipt and STOCK show display names from
/// NAMES, with the id beside them where it says something the name does not.
@Suite("Receipts and STOCK in the REPL show the shop's names", .timeLimit(.minutes(30)))
struct ItemNamesTerminalTests {
  @Test("ORDER 김치찌개 2 p1 prints the dish's and the product's names; STOCK shows the names too")
  func namesNotIds() throws {
    let server = try ShopServer()
    try server.register("bob")
    let listed = try ClientProcess.run(
      ["-p", "\(server.port)", "-u", "bob", "PRODUCT", "NEW", "name=Red apple", "price=1200", "stock=3"],
      environment: ["STOCKROOM_PASSWORD": ShopServer.password])
    #expect(listed.status == 0, "\(listed.output)\(listed.error)")
    let terminal = try TerminalSession()
    defer { terminal.stop() }
    try terminal.start(["-p", "\(server.port)"])
    try terminal.waitFor(text: ">")
    try terminal.type("ORDER 김치찌개 2 p1")
    try terminal.send("Enter")
    let receipt = try terminal.waitForPrompt(after: "OK order=1")
    #expect(receipt.contains("2 × 김치찌개 (kimchi_jjigae)"), "\(receipt)")
    #expect(receipt.contains("1 × Red apple (p1)"), "\(receipt)")
    #expect(receipt.contains("Stock left: 김치찌개 (kimchi_jjigae) 10, Red apple (p1) 2"), "\(receipt)")
    try terminal.type("STOCK kiwi galbi_jjim")
    try terminal.send("Enter")
    let stock = try terminal.waitForPrompt(after: "OK 2 items")
    let rows = TerminalSession.lines(stock)
    #expect(rows.contains { $0.hasPrefix("kiwi ") && $0.hasSuffix(" Kiwi") }, "\(stock)")
    #expect(rows.contains { $0.hasPrefix("galbi_jjim ") && $0.hasSuffix(" 소갈비찜") }, "\(stock)")
  }
}

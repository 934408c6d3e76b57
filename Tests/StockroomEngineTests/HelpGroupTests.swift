import StockroomProtocol
import Testing

@testable import StockroomEngineHarness

@Suite("HELP by group", .timeLimit(.minutes(30)))
struct HelpGroupTests {
  @Test("HELP lists every group with its commands after the commands, and HELP @group one group's")
  func groups() throws {
    let server = try EngineHarness()
    let client = try server.client()
    let help = try client.request("HELP")
    #expect(help.isOK)
    let groupRows = help.rows.filter { $0["kind"] == "group" }
    #expect(groupRows.map(\.id) == CommandGroup.allCases.map(\.label))
    for row in groupRows {
      let group = try CommandGroup.named(row.id ?? "")
      #expect(row["commands"] == group.commands.map(\.name).joined(separator: ", "))
      #expect(row["summary"] == group.summary)
    }
    #expect(groupRows.last?["commands"] == "USER, ADD, STOCKTAKE", "each command apart, not `USER ADD`")
    #expect(help.message == "24 commands in 8 groups; HELP <command> or HELP @<group> for one")
    for group in CommandGroup.allCases {
      let reply = try client.request("HELP \(group.label)")
      #expect(reply.message == group.label, "\(reply.lines)")
      #expect(reply.rows.map(\.id) == group.commands.map(\.name), "\(group.label)")
      #expect(reply.rows.allSatisfy { $0["group"] == group.rawValue && $0["usage"] != nil })
    }
    let shop = try client.request("help @Shop")
    #expect(shop.rows.map(\.id) == ["LIST", "SHOW", "NAMES", "STOCK", "ORDER"])
    #expect(try client.request("HELP @admin").rows.map(\.id) == ["USER", "ADD", "STOCKTAKE"])
  }

  @Test("an unknown group is ERR UNKNOWN with a guess and every group's name")
  func unknownGroup() throws {
    let server = try EngineHarness()
    let client = try server.client()
    let typo = try client.request("HELP @shp")
    #expect(typo.errorCode == .unknown)
    let groups = CommandGroup.allCases.map(\.label).joined(separator: " ")
    #expect(typo.lines == ["ERR UNKNOWN unknown group '@shp'; did you mean '@shop'? groups: \(groups)"])
    let far = try client.request("HELP @zzzzzzzz")
    #expect(far.lines == ["ERR UNKNOWN unknown group '@zzzzzzzz'; groups: \(groups)"])
    #expect(try client.request("HELP @").errorCode == .unknown)
    // The connection goes on.
    #expect(try client.request("PING").message == "PONG")
  }
}

import StockroomClient
import StockroomProtocol
import Testing

@Suite("The REPL's local HELP", .timeLimit(.minutes(30)))
struct HelpTextTests {
  private let plain = Palette(isEnabled: false)

  @Test("a mistyped command gets the server's suggestion")
  func suggestion() {
    let text = HelpText.render(["ordr"], palette: plain)
    #expect(text == "ERR UNKNOWN no command 'ordr'; did you mean ORDER?\n")
    // Nothing close: the pointer to the list, as before.
    #expect(HelpText.render(["zzzzzzzz"], palette: plain) == "ERR UNKNOWN no command 'zzzzzzzz'; HELP lists them\n")
  }

  @Test("HELP @group lists that group's commands from the table, in any case")
  func group() {
    let lines = HelpText.render(["@shop"], palette: plain).split(separator: "\n").map(String.init)
    #expect(lines.first == "shop")
    let names = lines.dropFirst().compactMap { $0.split(separator: " ").first.map(String.init) }
    #expect(names == CommandTable.commands.filter { $0.group == .shop }.map(\.name))
    #expect(names.contains("ORDER"))
    #expect(HelpText.render(["@SHOP"], palette: plain) == HelpText.render(["@shop"], palette: plain))
    let live = HelpText.render(["@live"], palette: plain)
    #expect(live.contains("WATCH") && !live.contains("ORDER"))
    #expect(HelpText.render(["@client"], palette: plain).contains(":json on|off"))
  }

  @Test("an unknown group names the known ones, with a guess")
  func unknownGroup() {
    let text = HelpText.render(["@shp"], palette: plain)
    // The server's words for the same mistake, with the REPL's own group among the names.
    let server = CommandGroup.unknown("@shp", among: HelpText.groups).description
    #expect(text == server + "\n")
    #expect(text.hasPrefix("ERR UNKNOWN unknown group '@shp'; did you mean '@shop'? groups: "))
    for group in CommandGroup.allCases { #expect(text.contains(group.label)) }
    #expect(text.hasSuffix(" @client\n"))
    #expect(HelpText.groups == CommandGroup.allCases.map(\.rawValue) + ["client"])
  }

  @Test("the overview still lists every command and says how to ask for a group")
  func overview() {
    let text = HelpText.render([], palette: plain)
    for spec in CommandTable.commands { #expect(text.contains("  " + spec.name + " ")) }
    #expect(text.contains("HELP @<group>"))
  }
}

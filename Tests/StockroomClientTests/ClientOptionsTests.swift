import StockroomClient
import Testing

@Suite("The options and local commands of issue 12", .timeLimit(.minutes(30)))
struct ClientOptionsTests {
  private func run(_ arguments: [String]) throws -> ClientOptions? {
    guard case .run(let options) = try ClientOptions.parse(arguments) else { return nil }
    return options
  }

  @Test("-r and -i as redis-cli reads them: -1 for ever, fractional seconds")
  func repeatOptions() throws {
    let options = try #require(try run(["-r", "-1", "-i", "0.25", "PING"]))
    #expect(options.repeatCount == -1)
    #expect(options.interval == 0.25)
    #expect(options.command == ["PING"])
    #expect(try run(["PING"])?.repeatCount == 1)
    for bad in [
      ["-r", "0", "PING"], ["-r", "-2", "PING"], ["-r", "x", "PING"], ["-r", "3"], ["-i", "1", "PING"],
      ["-r", "2", "-i", "-1", "PING"], ["-r", "2", "-i", "nan", "PING"], ["-r"],
    ] {
      #expect(throws: ClientOptions.UsageError.self, "\(bad)") { try ClientOptions.parse(bad) }
    }
  }

  @Test("--csv and --no-pager")
  func modeOptions() throws {
    #expect(try run(["--csv", "STOCK"])?.mode == .csv)
    #expect(try run([])?.pager == .automatic)
    #expect(try run(["--no-pager"])?.pager == PagerSetting.off)
    #expect(PagerSetting.automatic.command(environment: [:]) == "less -FRX")
    #expect(PagerSetting.automatic.command(environment: ["PAGER": "more"]) == "more")
    #expect(PagerSetting.command("most").command(environment: ["PAGER": "more"]) == "most")
    #expect(PagerSetting.off.command(environment: ["PAGER": "more"]) == nil)
  }

  @Test(":timing and :pager are local: on, off and their synonyms; alone, a report")
  func localCommands() {
    #expect(LocalCommand.parse(":timing on") == .timing(.set(true)))
    #expect(LocalCommand.parse(":timing OFF") == .timing(.set(false)))
    #expect(LocalCommand.parse(":timing") == .timing(.report))
    #expect(LocalCommand.parse(":pager off") == .pager(.set(false)))
    #expect(LocalCommand.parse(":pager") == .pager(.report))
    for word in ["true", "YES", "1"] { #expect(LocalCommand.parse(":wide \(word)") == .wide(.set(true))) }
    for word in ["false", "No", "0"] { #expect(LocalCommand.parse(":json \(word)") == .json(.set(false))) }
    #expect(LocalCommand.parse(":json maybe") == .json(.invalid("maybe")))
    #expect(LocalCommand.parse(":timing on off") == .timing(.invalid("on off")))
    #expect(LocalCommand.words.contains(":timing") && LocalCommand.words.contains(":pager"))
  }
}

import StockroomProtocol
import Testing

@Suite("Command table", .timeLimit(.minutes(30)))
struct CommandTableTests {
  private func parse(_ line: String) throws -> Request {
    try CommandTable.parse(try Tokenizer.words(in: line))
  }

  private func code(_ line: String) -> ErrorCode? {
    do {
      _ = try parse(line)
      return nil
    } catch let error as ProtocolError {
      return error.code
    } catch {
      return .internal
    }
  }

  @Test("every command id appears exactly once in the table")
  func everyIDOnce() {
    let ids = CommandTable.allWithPaths.map(\.spec.id)
    #expect(Set(ids).count == ids.count)
    #expect(Set(ids) == Set(CommandID.allCases))
  }

  @Test("a command id's index is its place in allCases, which the request path's tables rely on")
  func indexIsPlaceInAllCases() {
    for (place, id) in CommandID.allCases.enumerated() {
      #expect(id.index == place, "\(id)")
    }
  }

  @Test("every command is found by its name in any case, and no other word finds one")
  func commandsByName() {
    for spec in CommandTable.commands {
      #expect(CommandTable.command(named: spec.name) === spec)
      #expect(CommandTable.command(named: spec.name.lowercased()) === spec)
      #expect(CommandTable.command(named: String(spec.name.prefix(1)) + spec.name.dropFirst().lowercased()) === spec)
    }
    for word in ["", "PIN", "PINGS", "NEW", "ADDS", "1PING", "ßTOCK", "@shop", "\u{1F34C}"] {
      #expect(CommandTable.command(named: word) == nil, "\(word)")
    }
  }

  @Test("every command has a summary and at least one example that itself parses")
  func examplesParse() throws {
    for (path, spec) in CommandTable.allWithPaths {
      #expect(!spec.summary.isEmpty, "\(path)")
      #expect(!spec.examples.isEmpty, "\(path) has no example")
      for example in spec.examples {
        let request = try parse(example)
        #expect(request.path.hasPrefix(path.split(separator: " ")[0]), "\(example) parsed as \(request.path)")
      }
    }
  }

  @Test("every command is in a group, a subcommand in its command's, and every group has commands")
  func groups() throws {
    for spec in CommandTable.commands {
      for sub in spec.subcommands { #expect(sub.group == spec.group, "\(spec.name) \(sub.name)") }
    }
    for group in CommandGroup.allCases {
      #expect(!group.commands.isEmpty, "\(group.label) has no commands")
      #expect(!group.summary.isEmpty)
      #expect(try CommandGroup.named(group.label.uppercased()) == group)
    }
    #expect(CommandGroup.allCases.flatMap(\.commands).count == CommandTable.commands.count)
    #expect(throws: ProtocolError.self) { try CommandGroup.named("shop") }
    let error = CommandGroup.unknown("@shp", among: CommandGroup.allCases.map(\.rawValue))
    #expect(error.code == .unknown)
    #expect(error.message.hasPrefix("unknown group '@shp'; did you mean '@shop'? groups: @connection @account"))
  }

  @Test("command words are case-insensitive and subcommands resolve")
  func caseInsensitive() throws {
    #expect(try parse("order banana_juice").id == .order)
    #expect(try parse("Diary new t b").id == .diaryNew)
    #expect(try parse("PRODUCT delete p1").id == .productDelete)
  }

  @Test("arity and options are checked from the table")
  func arityChecks() {
    #expect(code("FROB") == .unknown)
    #expect(code("DIARY FROB") == .unknown)
    #expect(code("DIARY") == .args)
    #expect(code("SHOW") == .args)
    #expect(code("SHOW a b") == .args)
    #expect(code("HELLO alice") == .args, "HELLO names no one")
    #expect(code("LOGIN alice") == .args)
    #expect(code("ORDER") == .args)
    #expect(code("ADD banana") == .args)
    #expect(code("ADD banana 1 kiwi") == nil, "pairing past the first is checked by ADD itself")
    #expect(code("LIST products page=2 size=5") == nil)
    #expect(code("LIST products colour=red") == .args)
    #expect(code("LIST products page=1 page=2") == .args)
    #expect(code("PRODUCT NEW name=x") == .args, "price= is required")
    #expect(code("PRODUCT NEW name=x price=1") == nil)
    #expect(code("name=x") == .unknown)
  }

  @Test("positional words keep their order around options, which are taken out of them")
  func positionalsAroundOptions() throws {
    let order = try parse("ORDER a 1 KEY=k1 b 2")
    #expect(order.arguments.map(\.text) == ["a", "1", "b", "2"])
    #expect(order.options == [.key: "k1"])
    let edit = try parse("PRODUCT EDIT price=1100 p1 discount=none")
    #expect(edit.arguments.map(\.text) == ["p1"])
    #expect(edit.options == [.price: "1100", .discount: "none"])
    // A command without options reads a key=value word as text, in its place.
    #expect(try parse("PING a=b").arguments.map(\.text) == ["a=b"])
  }

  @Test("options reach the handler by their typed key, whatever the case they were typed in")
  func typedOptions() throws {
    let request = try parse("PRODUCT NEW name=\"green tea\" PRICE=3000 stock=4")
    #expect(request.options == [.name: "green tea", .price: "3000", .stock: "4"])
    #expect(try request.required(.price) == "3000")
    #expect(throws: ProtocolError.self) { try parse("LIST").required(.page) }
    #expect(try parse("ORDER kiwi_juice KEY=k1").options[.key] == "k1")
  }

  @Test("every option key the protocol knows is one some command takes, written as its wire word")
  func everyOptionKeyIsUsed() {
    let taken = Set(CommandTable.allWithPaths.flatMap { $0.spec.options.map(\.key) })
    #expect(taken == Set(OptionKey.allCases))
    for key in OptionKey.allCases { #expect(key.rawValue == key.rawValue.lowercased()) }
  }

  @Test("a command's option is found by its lower-case key, and only among its own")
  func optionNamed() throws {
    let product = try #require(CommandTable.command(named: "PRODUCT")?.subcommand(named: "NEW"))
    #expect(product.option(named: "price")?.key == .price)
    #expect(product.option(named: "page") == nil, "PRODUCT NEW takes no page=")
    #expect(product.option(named: "pri") == nil)
    #expect(OptionKey.price.word == "price=")
    #expect(OptionKey.allCases.allSatisfy { $0.word == $0.rawValue + "=" })
  }

  @Test("the synopsis is derived from the arguments")
  func synopsis() {
    #expect(CommandTable.command(named: "ORDER")?.argumentSynopsis == "<item> [n] [<item> [n] ...] [key=<text>]")
    #expect(CommandTable.command(named: "ADD")?.argumentSynopsis == "<item> <n> [<item> <n> ...]")
    #expect(CommandTable.command(named: "DIARY")?.argumentSynopsis == "NEW|LIST|SHOW|EDIT|DELETE ...")
    #expect(CommandTable.command(named: "PING")?.argumentSynopsis == "[text]")
  }

  @Test("every error code is one upper-case word")
  func errorCodes() {
    for code in ErrorCode.allCases {
      #expect(code.rawValue.allSatisfy { $0.isUppercase && $0.isASCII })
      #expect(!code.meaning.isEmpty)
    }
  }
}

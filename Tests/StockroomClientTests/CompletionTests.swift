import StockroomClient
import StockroomProtocol
import Testing

@Suite("Completion and hints come from the command table and the server's names", .timeLimit(.minutes(30)))
struct CompletionTests {
  private static func names() -> CatalogNames {
    var names = CatalogNames()
    var reader = ReplyReader()
    for line in [
      "* banana kind=fruit aliases=바나나", "* strawberry_banana_juice kind=juice aliases=딸바쥬스",
      "* strawberry kind=fruit aliases=딸기", "* soup kind=section aliases=국찌개",
      "* p1 kind=product aliases=", "* eiffel_tower kind=exhibit aliases=에펠탑",
      "OK count=6 generation=3",
    ] {
      if case .reply(let reply)? = reader.feed(line) { names.update(names: reply) }
    }
    for line in ["* fruits kind=category count=5", "* diary kind=category count=0", "OK 2 categories"] {
      if case .reply(let reply)? = reader.feed(line) { names.update(categories: reply) }
    }
    for line in ["* 3 kind=diary title=x", "* 7 kind=diary title=y", "OK total=2"] {
      if case .reply(let reply)? = reader.feed(line) { names.update(diary: reply) }
    }
    return names
  }

  private let completer = Completer(names: CompletionTests.names())

  @Test("NAMES fills ids, aliases, kinds and the generation")
  func namesParsed() {
    let names = Self.names()
    #expect(names.generation == 3)
    #expect(names.entries.count == 6)
    #expect(names.entries[0] == .init(id: "banana", kind: "fruit", aliases: ["바나나"]))
    #expect(names.categories == ["fruits", "diary"])
    #expect(names.diaryIDs == ["3", "7"])
  }

  @Test("display names from NAMES complete too, unless they would need quotes")
  func displayNames() {
    var names = CatalogNames()
    var reader = ReplyReader()
    for line in [
      "* kimchi_jjigae kind=dish name=김치찌개 aliases=김찌,kimchijjigae",
      "* strawberry_juice kind=juice name=\"Strawberry Juice\" aliases=딸기쥬스", "* p1 kind=product name=떡",
      "* banana kind=fruit name=banana", "OK count=4 generation=1",
    ] {
      if case .reply(let reply)? = reader.feed(line) { names.update(names: reply) }
    }
    #expect(names.entries[0].name == "김치찌개")
    let completer = Completer(names: names)
    #expect(completer.complete("ORDER 김치").candidates == ["김치찌개"])
    #expect(Set(completer.complete("ORDER 김").candidates) == ["김찌", "김치찌개"])
    #expect(completer.complete("ORDER 떡").candidates == ["떡"])
    #expect(completer.complete("ORDER Straw").candidates == ["strawberry_juice"], "the id, not the spaced name")
    #expect(completer.complete("ORDER bana").candidates == ["banana"])
    #expect(completer.complete("PRODUCT EDIT ").candidates == ["p1"], "EDIT takes the id only")
  }

  @Test("command words complete from the table, in the case typed")
  func commands() {
    #expect(completer.complete("OR").candidates == ["ORDER"])
    #expect(completer.complete("or").candidates == ["order"])
    #expect(Set(completer.complete("UN").candidates) == ["UNWATCH"])
    #expect(completer.complete(":h").candidates == [":help", ":history"])
    #expect(completer.complete(":hi").candidates == [":history"])
    let all = Set(completer.complete("").candidates)
    #expect(all.isSuperset(of: CommandTable.commands.map(\.name)))
  }

  @Test("a client switch's argument completes to on or off; other client commands take none")
  func clientCommandArguments() {
    #expect(completer.complete(":json ").candidates == ["on", "off"])
    #expect(completer.complete(":pager o").candidates == ["on", "off"])
    #expect(completer.complete(":timing of").candidates == ["off"])
    #expect(completer.complete(":history ").candidates.isEmpty)
    #expect(completer.complete(":json on ").candidates.isEmpty)
  }

  @Test(":watch SECONDS completes a server command and its arguments; :connect its schemes; hints from :help")
  func clientCommandLines() {
    #expect(completer.complete(":watch ").candidates.isEmpty)
    let commands = completer.complete(":watch 2 ").candidates
    #expect(Set(commands) == Set(CommandTable.commands.map(\.name)).subtracting(["HELP", "QUIT"]))
    #expect(completer.complete(":watch 2 st").candidates == ["stock", "stocktake"])
    #expect(completer.complete(":watch 0.5 STOCK bana").candidates == ["banana"])
    #expect(completer.complete(":connect ").candidates == ["stockroom://", "stockrooms://"])
    #expect(completer.complete(":connect stockrooms").candidates == ["stockrooms://"])
    #expect(completer.complete(":connect stockroom://x ").candidates.isEmpty)
    #expect(completer.hint(":json ") == "[on|off]")
    #expect(completer.hint(":connect ") == "URL")
    #expect(completer.hint(":watch ") == "SECONDS COMMAND")
    #expect(completer.hint(":watch 2 ") == "COMMAND")
    #expect(completer.hint(":watch 2 ADD banana ") == "<n> [<item> <n> ...]")
    #expect(completer.hint(":json on ") == nil)
  }

  @Test("subcommands complete after DIARY and PRODUCT")
  func subcommands() {
    #expect(completer.complete("DIARY ").candidates == ["NEW", "LIST", "SHOW", "EDIT", "DELETE"])
    #expect(completer.complete("DIARY S").candidates == ["SHOW"])
    #expect(completer.complete("product d").candidates == ["delete"])
  }

  @Test("arguments complete by kind: items with Korean aliases, products, diary ids, categories")
  func argumentsByKind() {
    #expect(completer.complete("ORDER 딸").candidates == ["딸바쥬스", "딸기"])
    #expect(completer.complete("ORDER 바").candidates == ["바나나"])
    #expect(completer.complete("ORDER banana_juice 2 straw").candidates.contains("strawberry"))
    #expect(!completer.complete("ORDER ").candidates.contains("soup"))
    #expect(completer.complete("SHOW 에").candidates == ["에펠탑"])
    #expect(completer.complete("PRODUCT EDIT ").candidates == ["p1"])
    #expect(completer.complete("PRODUCT EDIT p1 pr").candidates == ["price="])
    #expect(completer.complete("DIARY SHOW ").candidates == ["3", "7"])
    #expect(completer.complete("LIST f").candidates == ["fruits"])
    #expect(completer.complete("LIST fruits ").candidates.contains("soup"))
    #expect(completer.complete("LIST fruits p").candidates == ["page="])
    #expect(completer.complete("HELP DI").candidates == ["DIARY"])
    #expect(completer.complete("HELP @sh").candidates == ["@shop"])
    #expect(completer.complete("HELP @c").candidates == ["@connection", "@client"])
    #expect(completer.complete("NOSUCH ").candidates.isEmpty)
    #expect(completer.complete("INFO ").candidates == ["server", "clients", "store", "stats"])
    #expect(completer.complete("INFO clients st").candidates == ["store", "stats"])
  }

  @Test("hints show what is left to type, from the table")
  func hints() {
    #expect(completer.hint("ORDER ")?.hasPrefix("<item> [n] [<item> [n] ...]") == true)
    #expect(completer.hint("ADD banana ") == "<n> [<item> <n> ...]")
    #expect(completer.hint("DIARY ") == "NEW|LIST|SHOW|EDIT|DELETE ...")
    #expect(completer.hint("DIARY SHOW ") == "<id>")
    #expect(completer.hint("DIARY SHOW 3 ") == nil)
    #expect(completer.hint("LIST fruits page=2 ") == "[section] [size=<number>]")
    #expect(completer.hint("ORDER") == nil)
    // In the middle of a word: what comes after the word being typed.
    #expect(completer.hint("ORDER 김치찌개 k") == "[n] [<item> [n] ...] [key=<text>]")
    #expect(completer.hint("ORDER kiwi 2") == "<item> [n] [<item> [n] ...] [key=<text>]")
    #expect(completer.hint("DIARY SHOW 3") == nil)
    // A half-typed subcommand: the one it can become with what it takes, or the names.
    #expect(completer.hint("DIARY NE") == "NEW <title> <body>")
    #expect(completer.hint("DIARY XY") == nil)
    #expect(completer.hint("LIST fruits pa") == "[page=<number>] [size=<number>]")
    #expect(completer.hint("PING hello ") == nil)
  }

  @Test("LOGIN lines and password= arguments are never remembered; blank lines neither")
  func secretsStayOutOfHistory() {
    #expect(HistoryPolicy.shouldRemember("STOCK banana"))
    #expect(!HistoryPolicy.shouldRemember("LOGIN alice hunter2"))
    #expect(!HistoryPolicy.shouldRemember("login alice"))
    #expect(!HistoryPolicy.shouldRemember("\"LOGIN\" alice hunter2"))
    #expect(!HistoryPolicy.shouldRemember("AUTH s3cret"))
    #expect(!HistoryPolicy.shouldRemember("HELLO alice password=hunter2"))
    #expect(!HistoryPolicy.shouldRemember("HELLO alice PASSWORD=\"a b\""))
    #expect(!HistoryPolicy.shouldRemember("   "))
    // A mistyped subcommand may still hold a password; a known one without any is kept.
    #expect(!HistoryPolicy.shouldRemember("USER ADDD bob hunter2"))
    #expect(HistoryPolicy.shouldRemember("USER LIST"))
    #expect(HistoryPolicy.shouldRemember("USER ROLE bob staff"))
    #expect(HistoryPolicy.shouldRemember("WHOAMI"))
    #expect(HistoryPolicy.shouldRemember("LOGOUT"))
  }

  /// Every command and subcommand of the table with its arguments filled in: a password
  /// argument with a made-up password, the others with a plausible word.
  private static func filledLines() -> [(path: String, spec: CommandSpec, line: String)] {
    CommandTable.allWithPaths.map { path, spec in
      let words = spec.arguments.map { $0.kind == .password ? "\"not really secret\"" : "x1" }
      let options = spec.options.filter(\.isRequired).map { $0.key.rawValue + "=1" }
      return (path, spec, ([path] + words + options).joined(separator: " "))
    }
  }

  @Test("from the table: every command with a password argument stays out of history, in any case")
  func everyPasswordCommandForgotten() {
    let secret = Self.filledLines().filter { HistoryPolicy.takesPassword($0.spec) }
    // The table has these today; the test must not pass by finding none.
    #expect(Set(secret.map(\.path)) == ["LOGIN", "REGISTER", "PASSWD", "USER ADD", "USER PASSWD"])
    for (_, _, line) in secret {
      #expect(!HistoryPolicy.shouldRemember(line), "remembered: \(line)")
      #expect(!HistoryPolicy.shouldRemember(line.lowercased()), "remembered: \(line.lowercased())")
    }
    // And the rest are remembered, so the rule is not simply "forget everything".
    for (_, spec, line) in Self.filledLines() where !HistoryPolicy.takesPassword(spec) && spec.subcommands.isEmpty {
      #expect(HistoryPolicy.shouldRemember(line), "forgotten: \(line)")
    }
  }

  @Test("from the table: nothing is ever offered where a password goes")
  func passwordsNeverCompleted() {
    var checked = 0
    for (path, spec) in CommandTable.allWithPaths {
      for (index, argument) in spec.arguments.enumerated() where argument.kind == .password {
        let before = ([path] + spec.arguments[..<index].map { $0.kind == .password ? "pw" : "banana" })
          .joined(separator: " ")
        for partial in ["", "b", "p", "r", "ro"] {
          let candidates = completer.complete(before + " " + partial).candidates
          #expect(candidates.isEmpty, "\(before) \(partial) offered \(candidates)")
        }
        checked += 1
      }
    }
    #expect(checked >= 6, "the table has password arguments in LOGIN, REGISTER, PASSWD (2), USER ADD, USER PASSWD")
  }

  @Test("roles complete as an argument and as role=; account commands hint their arguments")
  func accountCommands() {
    #expect(completer.complete("USER ROLE bob ").candidates == ["customer", "staff", "admin"])
    #expect(completer.complete("user role bob st").candidates == ["staff"])
    #expect(completer.complete("USER ADD bob pw ").candidates == ["role="])
    #expect(completer.complete("USER ADD bob pw role=").candidates == ["role=customer", "role=staff", "role=admin"])
    #expect(completer.complete("USER ADD bob pw role=a").candidates == ["role=admin"])
    #expect(completer.complete("USER ").candidates == ["ADD", "DEL", "ROLE", "PASSWD", "LIST"])
    #expect(completer.complete("WHOA").candidates == ["WHOAMI"])
    #expect(Set(completer.complete("WHO").candidates) == ["WHO", "WHOAMI"])
    #expect(completer.hint("LOGIN ") == "<name> <password>")
    #expect(completer.hint("LOGIN alice ") == "<password>")
    #expect(completer.hint("REGISTER ") == "<name> <password>")
    #expect(completer.hint("PASSWD ") == "<old> <new>")
    #expect(completer.hint("USER ADD ") == "<name> <password> [role=<role>]")
    #expect(completer.hint("USER ROLE bob ") == "<role>")
    #expect(completer.hint("LOGOUT ") == nil)
  }

  @Test("the history file is STOCKROOM_HISTFILE, else ~/.stockroom_history; /dev/null turns it off")
  func historyFile() {
    #expect(HistoryPolicy.file(environment: ["HOME": "/home/a"]) == "/home/a/.stockroom_history")
    #expect(HistoryPolicy.file(environment: ["HOME": "/h", "STOCKROOM_HISTFILE": "/tmp/x"]) == "/tmp/x")
    #expect(HistoryPolicy.file(environment: ["HOME": "/h", "STOCKROOM_HISTFILE": "/dev/null"]) == nil)
  }

  @Test("command-line options, environment and the one-shot request line")
  func options() throws {
    let parsed = try ClientOptions.parse(
      ["-h", "::1", "-p", "9000", "--json", "ORDER", "banana_juice", "2"],
      environment: ["STOCKROOM_PORT": "1234", "STOCKROOM_HOST": "10.0.0.1"])
    guard case .run(let options) = parsed else {
      Issue.record("expected run, got \(parsed)")
      return
    }
    #expect(options.host == "::1")
    #expect(options.port == 9000)
    #expect(options.mode == .json)
    #expect(options.command == ["ORDER", "banana_juice", "2"])
    let fromEnvironment = try ClientOptions.parse([], environment: ["STOCKROOM_PORT": "1234"])
    var expected = ClientOptions()
    expected.port = 1234
    #expect(fromEnvironment == .run(expected))
    #expect(try ClientOptions.parse(["--help"]) == .help)
    #expect(try ClientOptions.parse(["--version"]) == .version)
    #expect(ClientOptions.versionLine == "stockroom 0.1.0 protocol=2")
    #expect(throws: ClientOptions.UsageError.self) { try ClientOptions.parse(["-p", "x"]) }
    #expect(throws: ClientOptions.UsageError.self) { try ClientOptions.parse(["--bogus"]) }
    #expect(
      ClientOptions.requestLine(["DIARY", "NEW", "Market day", "Sold 딸기"])
        == "DIARY NEW \"Market day\" \"Sold 딸기\"")
    #expect(
      ClientOptions.requestLine(["PRODUCT", "NEW", "name=Red apple", "price=1200"])
        == "PRODUCT NEW name=\"Red apple\" price=1200")
  }

  @Test("local commands are recognised without a round trip")
  func localCommands() {
    #expect(LocalCommand.parse("HELP ORDER") == .help(["ORDER"]))
    #expect(LocalCommand.parse(":json on") == .json(.set(true)))
    #expect(LocalCommand.parse(":json off") == .json(.set(false)))
    #expect(LocalCommand.parse(":clear") == .clear)
    #expect(LocalCommand.parse("quit") == .quit)
    #expect(LocalCommand.parse("STOCK") == nil)
    #expect(HelpText.render(["ORDER"], palette: Palette(isEnabled: false)).contains("ORDER 딸바쥬스 2 galbi_jjim"))
    #expect(
      HelpText.render(["DIARY", "NEW"], palette: Palette(isEnabled: false)).hasPrefix("DIARY NEW <title> <body>"))
  }
}

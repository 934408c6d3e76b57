import StockroomText

/// The command table: the one list of commands that drives dispatch, HELP, argument checks,
/// Protocol.md's test and client completion.
public enum CommandTable {
  public static let commands: [CommandSpec] = [
    CommandSpec(
      .help, "HELP", group: .connection, flags: [.connection],
      arguments: [Argument("command|@group", .command, optional: true)],
      summary: "List the commands and their groups, or describe one command or group.",
      examples: ["HELP", "HELP ORDER", "HELP @shop"]),
    CommandSpec(
      .ping, "PING", group: .connection, flags: [.connection],
      arguments: [Argument("text", .text, optional: true)],
      summary: "Answer OK PONG, or echo the text.", examples: ["PING", "PING hello"]),
    CommandSpec(
      .quit, "QUIT", group: .connection, flags: [.connection],
      summary: "Say goodbye and close the connection.", examples: ["QUIT"]),
    CommandSpec(
      .hello, "HELLO", group: .connection, flags: [.connection],
      summary: "The handshake: the protocol version, the server and who this connection is logged in as.",
      examples: ["HELLO"]),
    CommandSpec(
      .login, "LOGIN", group: .account, flags: [.connection],
      arguments: [Argument("name", .account), Argument("password", .password)],
      summary: "Log in; a wrong name and a wrong password get the same ERR AUTH, and failures are slowed down.",
      examples: ["LOGIN alice \"correct horse battery\""]),
    CommandSpec(
      .logout, "LOGOUT", group: .account, flags: [.connection],
      summary: "Log out; the connection goes on as a guest.", examples: ["LOGOUT"]),
    CommandSpec(
      .whoami, "WHOAMI", group: .account, flags: [.connection],
      summary: "The account this connection is logged in as, and its role; guest when none.", examples: ["WHOAMI"]),
    CommandSpec(
      .register, "REGISTER", group: .account, flags: [.write],
      arguments: [Argument("name", .name), Argument("password", .password)],
      summary: "Make a customer account and log in, when the server allows self-registration.",
      examples: ["REGISTER 민지 \"a long passphrase\""]),
    CommandSpec(
      .passwd, "PASSWD", group: .account, role: .customer, flags: [.write],
      arguments: [Argument("old", .password), Argument("new", .password)],
      summary: "Change your own password.", examples: ["PASSWD \"old passphrase\" \"new passphrase\""]),
    CommandSpec(
      .user, "USER", group: .admin, role: .admin, flags: [.write],
      summary: "Manage accounts: ADD, DEL, ROLE, PASSWD, LIST.", examples: ["USER LIST"],
      subcommands: [
        CommandSpec(
          .userAdd, "ADD", group: .admin, role: .admin, flags: [.write],
          arguments: [Argument("name", .name), Argument("password", .password)],
          options: [OptionSpec(.role, .role, "customer (default), staff or admin")],
          summary: "Make an account.", examples: ["USER ADD bob \"bob's passphrase\" role=staff"]),
        CommandSpec(
          .userDel, "DEL", group: .admin, role: .admin, flags: [.write],
          arguments: [Argument("name", .account)],
          summary: "Remove an account; its data stays, and only an admin can make the name again.",
          examples: ["USER DEL bob"]),
        CommandSpec(
          .userRole, "ROLE", group: .admin, role: .admin, flags: [.write],
          arguments: [Argument("name", .account), Argument("role", .role)],
          summary: "Give an account another role; it takes effect on its next request.",
          examples: ["USER ROLE bob admin"]),
        CommandSpec(
          .userPasswd, "PASSWD", group: .admin, role: .admin, flags: [.write],
          arguments: [Argument("name", .account), Argument("password", .password)],
          summary: "Set an account's password.", examples: ["USER PASSWD bob \"a new passphrase\""]),
        CommandSpec(
          .userList, "LIST", group: .admin, role: .admin, flags: [.read],
          options: [
            OptionSpec(.page, .number, "page number, from 1"),
            OptionSpec(.size, .number, "accounts per page, 1 to 100"),
          ],
          summary: "Every account with its role.", examples: ["USER LIST"]),
      ]),
    CommandSpec(
      .info, "INFO", group: .connection, flags: [.read],
      arguments: [Argument("section", .infoSection, optional: true)], repeats: true,
      summary: "Server facts by section (server, clients, store, stats): all of them, or the sections named.",
      examples: ["INFO", "INFO clients", "INFO store stats"]),
    CommandSpec(
      .list, "LIST", group: .shop, flags: [.read],
      arguments: [Argument("category", .category, optional: true), Argument("section", .section, optional: true)],
      options: [
        OptionSpec(.page, .number, "page number, from 1"),
        OptionSpec(.size, .number, "items per page, 1 to 100"),
      ],
      restrictions: [
        Restriction(
          .argument(index: 0, value: "orders"), role: .customer,
          "order history is personal: your own orders, or everyone's for staff"),
        Restriction(.argument(index: 0, value: "diary"), role: .customer, "a diary is its owner's alone"),
      ],
      summary: "Without a category, every category with its item count; with one, its items, a page at a time.",
      examples: ["LIST", "LIST juices", "LIST dishes soup", "LIST dishes page=2 size=5", "LIST orders"]),
    CommandSpec(
      .show, "SHOW", group: .shop, flags: [.read],
      arguments: [Argument("item", .anything)],
      summary: "Everything about one fruit, juice, dish, product, section or exhibit.",
      examples: ["SHOW strawberry_banana_juice", "SHOW 딸바쥬스", "SHOW eiffel_tower"]),
    CommandSpec(
      .names, "NAMES", group: .shop, flags: [.read],
      summary: "Every id and alias a command accepts, with its kind; clients complete from this.",
      examples: ["NAMES"]),
    CommandSpec(
      .expo, "EXPO", group: .expo, flags: [.read],
      summary: "The poster of the Paris 1900 Exposition.", examples: ["EXPO"]),
    CommandSpec(
      .stock, "STOCK", group: .shop, flags: [.read],
      arguments: [Argument("item", .item, optional: true)], repeats: true,
      summary: "Current stock of the named items, or of every fruit, dish and product.",
      examples: ["STOCK", "STOCK banana 망고"]),
    CommandSpec(
      .add, "ADD", group: .admin, role: .staff, flags: [.write],
      arguments: [Argument("item", .item), Argument("n", .delta)], repeats: true,
      summary: "Restock (n > 0) or correct downward after a stocktake (n < 0), all or nothing; never below zero.",
      examples: ["ADD banana 5", "ADD strawberry 20 kiwi 4", "ADD mango -2"]),
    CommandSpec(
      .stocktake, "STOCKTAKE", group: .admin, role: .staff, flags: [.read],
      arguments: [Argument("item", .item)],
      options: [
        OptionSpec(.page, .number, "page number, from 1"),
        OptionSpec(.size, .number, "ledger entries per page, 1 to 100"),
      ],
      summary: "One item's ledger: its totals, whether they balance, and every restock and order that moved it.",
      examples: ["STOCKTAKE banana", "STOCKTAKE 딸기 size=5"]),
    CommandSpec(
      .order, "ORDER", group: .shop, flags: [.write],
      arguments: [Argument("item", .item), Argument("n", .quantity, optional: true)], repeats: true,
      options: [
        OptionSpec(
          .key, .text, "a client-chosen id: the same key again returns the first reply and takes nothing twice")
      ],
      restrictions: [Restriction(.option(.key), role: .customer, "keyed orders belong to an account")],
      summary: "Order juices, dishes, fruits or products, all or nothing across every line.",
      examples: ["ORDER banana_juice", "ORDER 딸바쥬스 2 galbi_jjim", "ORDER p3 2", "ORDER kiwi_juice key=7f3a-0001"]),
    CommandSpec(
      .diary, "DIARY", group: .diary, role: .customer, flags: [.write],
      summary: "Your own diary: NEW, LIST, SHOW, EDIT, DELETE.",
      examples: ["DIARY NEW \"Market day\" \"Bought 딸기.\\nSold out by noon.\"", "DIARY LIST"],
      subcommands: [
        CommandSpec(
          .diaryNew, "NEW", group: .diary, role: .customer, flags: [.write],
          arguments: [Argument("title", .text), Argument("body", .text)],
          summary: "Write an entry; quote the title and body, \\n starts a new line.",
          examples: ["DIARY NEW \"Market day\" \"Sold out by noon.\""]),
        CommandSpec(
          .diaryList, "LIST", group: .diary, role: .customer, flags: [.read],
          options: [
            OptionSpec(.page, .number, "page number, from 1"),
            OptionSpec(.size, .number, "entries per page, 1 to 100"),
          ],
          summary: "Your entries, newest first, with a one-line preview.", examples: ["DIARY LIST size=5"]),
        CommandSpec(
          .diaryShow, "SHOW", group: .diary, role: .customer, flags: [.read],
          arguments: [Argument("id", .diaryID)], summary: "One entry in full.", examples: ["DIARY SHOW 3"]),
        CommandSpec(
          .diaryEdit, "EDIT", group: .diary, role: .customer, flags: [.write],
          arguments: [Argument("id", .diaryID)],
          options: [OptionSpec(.title, .text, "new title"), OptionSpec(.body, .text, "new body")],
          summary: "Change the title, the body or both.", examples: ["DIARY EDIT 3 title=\"Market day, 2nd\""]),
        CommandSpec(
          .diaryDelete, "DELETE", group: .diary, role: .customer, flags: [.write],
          arguments: [Argument("id", .diaryID)], summary: "Delete an entry.", examples: ["DIARY DELETE 3"]),
      ]),
    CommandSpec(
      .product, "PRODUCT", group: .market, flags: [.write],
      summary: "The open market: LIST and SHOW for anyone; NEW, EDIT and DELETE to sell.",
      examples: ["PRODUCT NEW name=\"Red apple\" price=1200 stock=30"],
      subcommands: [
        CommandSpec(
          .productNew, "NEW", group: .market, role: .customer, flags: [.write],
          options: productOptions(required: true),
          summary: "Register a product; answers its id (p1, p2, ...).",
          examples: [
            "PRODUCT NEW name=\"Red apple\" price=1200 stock=30",
            "PRODUCT NEW name=Teapot price=24.50 currency=USD discount=10% stock=3 description=\"Blue glaze\"",
          ]),
        CommandSpec(
          .productEdit, "EDIT", group: .market, role: .customer, flags: [.write],
          arguments: [Argument("id", .productID)], options: productOptions(required: false),
          summary: "Change a product you sell; stock changes go through ADD.",
          examples: ["PRODUCT EDIT p1 price=1100 discount=none"]),
        CommandSpec(
          .productDelete, "DELETE", group: .market, role: .customer, flags: [.write],
          arguments: [Argument("id", .productID)], summary: "Stop selling a product (admins: any product).",
          examples: ["PRODUCT DELETE p1"]),
        CommandSpec(
          .productList, "LIST", group: .market, flags: [.read],
          options: [
            OptionSpec(.page, .number, "page number, from 1"),
            OptionSpec(.size, .number, "products per page, 1 to 100"),
          ],
          summary: "Every product on sale, a page at a time (as LIST products).", examples: ["PRODUCT LIST size=5"]),
        CommandSpec(
          .productShow, "SHOW", group: .market, flags: [.read],
          arguments: [Argument("id", .productID)], summary: "One product (as SHOW p1).",
          examples: ["PRODUCT SHOW p1"]),
      ]),
    CommandSpec(
      .watch, "WATCH", group: .live, flags: [.connection],
      arguments: [Argument("item", .item, optional: true)], repeats: true,
      summary: "Receive a ! stock event for every change of these items (all when none named), by anyone.",
      examples: ["WATCH", "WATCH banana strawberry"]),
    CommandSpec(
      .unwatch, "UNWATCH", group: .live, flags: [.connection],
      summary: "Stop receiving stock events.", examples: ["UNWATCH"]),
    CommandSpec(
      .who, "WHO", group: .live, flags: [.read],
      summary: "How many are connected, guests and logged in; staff also see who, with their connections.",
      examples: ["WHO"]),
  ]

  private static func productOptions(required: Bool) -> [OptionSpec] {
    // Stock is set once at listing; after that it moves only through ADD and ORDER, so the ledger stays whole.
    let stock =
      required ? [OptionSpec(.stock, .number, "starting stock (default 0); later changes go through ADD")] : []
    return [
      OptionSpec(.name, .text, required: required, "display name"),
      OptionSpec(.price, .money, required: required, "price: whole won for KRW, 12.50 for USD"),
      OptionSpec(.currency, .currency, "KRW (default) or USD"),
      OptionSpec(.description, .text, "a short description"),
      OptionSpec(.discount, .discount, "10% off, a sale price, or none"),
    ] + stock
  }

  /// The commands by their name's first letter (its low five bits, so either case finds the
  /// same list): every request looks its command up, and comparing a word with the two or three
  /// names under its letter costs a fraction of hashing it for a dictionary.
  private static let byInitial: [[CommandSpec]] = (0..<32).map { bucket in
    commands.filter { Int($0.name.utf8.first! & 0x1F) == bucket }
  }

  /// The command named by `word`, case-insensitively.
  public static func command(named word: String) -> CommandSpec? {
    if let spec = command(exactly: word) { return spec }
    return command(exactly: word.uppercased())
  }

  private static func command(exactly name: String) -> CommandSpec? {
    guard let first = name.utf8.first else { return nil }
    return byInitial[Int(first & 0x1F)].first { $0.name == name }
  }

  /// Every spec, subcommands included, with the command words that reach it.
  public static var allWithPaths: [(path: String, spec: CommandSpec)] {
    commands.flatMap { spec in
      [(spec.name, spec)] + spec.subcommands.map { ("\(spec.name) \($0.name)", $0) }
    }
  }

  /// Checks a request's words against the table: known command, subcommand, arity, options.
  /// The positional words are sorted out of `words` in place, so a caller that hands over its
  /// only copy gets its array back as `arguments`, and no new one is made per request.
  public static func parse(_ words: consuming [Word]) throws(ProtocolError) -> Request {
    guard !words.isEmpty else { throw ProtocolError(.syntax, "empty request") }
    // Read in place: copying the first word out would retain its three strings.
    guard !words[0].isOption, var spec = command(named: words[0].text) else {
      throw ProtocolError(.unknown, "unknown command \(Echo.quoted(words[0].text)); type HELP for the list")
    }
    var path = spec.name
    var commandWords = 1
    if !spec.subcommands.isEmpty {
      let names = spec.subcommands.map(\.name).joined(separator: ", ")
      guard words.count > 1, !words[1].isOption else {
        throw ProtocolError(.args, "\(spec.name) needs a subcommand: \(names)")
      }
      let word = words[1]
      guard let sub = spec.subcommand(named: word.text) else {
        throw ProtocolError(
          .unknown, "unknown subcommand \(Echo.quoted(word.text)) for \(spec.name); expected \(names)")
      }
      spec = sub
      path += " " + sub.name
      commandWords = 2
    }
    // The positionals are moved to the front over the command words, and the rest dropped one
    // at a time: `removeFirst(_:)` and `removeLast(_:)` go through the general
    // `replaceSubrange`, which cost more than the rest of a PING's parse.
    // Words are swapped rather than copied into place, and options read where they lie: a copy of
    // a word retains its strings and the assignment over another releases that one's. Swapped in
    // the buffer, which moves their bytes: `Array.swapAt` copied both words (~260 instructions
    // a `STOCK banana`).
    var positionals = consume words
    var options: [OptionKey: String] = [:]
    var kept = 0
    let takesOptions = !spec.options.isEmpty
    for index in commandWords..<positionals.count {
      if takesOptions, positionals[index].isOption {
        try option(positionals[index], of: spec, path: path, into: &options)
      } else {
        if kept != index { positionals.withUnsafeMutableBufferPointer { $0.swapAt(kept, index) } }
        kept += 1
      }
    }
    while positionals.count > kept { positionals.removeLast() }
    // Built only for an error: this runs for every request.
    var usage: String { "usage: " + spec.usage(path: path) }
    if positionals.count < spec.minimumArguments {
      throw ProtocolError(.args, "too few arguments; \(usage)")
    }
    if let maximum = spec.maximumArguments, positionals.count > maximum {
      throw ProtocolError(.args, "too many arguments; \(usage)")
    }
    if spec.requiresOptions {
      for option in spec.options where option.isRequired && options[option.key] == nil {
        throw ProtocolError(.args, "\(option.key.word) is required; \(usage)")
      }
    }
    return Request(spec: spec, path: path, arguments: positionals, options: options)
  }

  /// Adds the option `word` gives to `options`, or says why `spec` does not take it.
  private static func option(
    _ word: Word, of spec: CommandSpec, path: String, into options: inout [OptionKey: String]
  ) throws(ProtocolError) {
    guard let key = word.key else { return }
    guard let option = spec.option(named: key)?.key else {
      let known = spec.options.map(\.key.word).joined(separator: " ")
      throw ProtocolError(.args, "\(path) does not take \(Echo.bounded(key))=; it takes \(known)")
    }
    guard options[option] == nil else { throw ProtocolError(.args, "\(key)= given twice") }
    options[option] = word.value
  }
}

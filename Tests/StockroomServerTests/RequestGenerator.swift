import StockroomProtocol

/// Request lines for the fuzzer, made from the command table: every command and subcommand, its
/// arguments by kind, its options, its examples; then mangled at the word and the byte level.
///
/// A line never contains LF: where lines end is for `FuzzScript` to decide and to count.
struct RequestGenerator: Sendable {
  let vocabulary: FuzzVocabulary
  let maxLine: Int

  /// Changes to the shared shop come up more often than the rest, so the run builds up a shop
  /// (orders, products, diaries) for the stock equation and the restart to be checked against.
  private static let weighted: [(Int, (path: String, spec: CommandSpec))] = CommandTable.allWithPaths.map { entry in
    let weight: Int
    switch entry.spec.id {
    case .quit: weight = 1
    case .diary, .product, .help, .expo, .names, .watch, .unwatch: weight = 2
    case .order, .add, .productNew, .diaryNew: weight = 12
    case .productEdit, .productDelete, .diaryEdit, .diaryDelete: weight = 5
    default: weight = 4
    }
    return (weight, entry)
  }

  /// The commands that take a password, each of which costs the server an Argon2id hash.
  private static let hashing = weighted.filter { takesPassword($0.1.spec) }
  private static let notHashing = weighted.filter { !takesPassword($0.1.spec) }

  private static func takesPassword(_ spec: CommandSpec) -> Bool {
    spec.arguments.contains { $0.kind == .password }
  }

  /// One request line, without its LF; with `passwords: false` never one of a command that
  /// takes a password (though a mangled line may still turn into one now and then).
  func line(_ random: inout FuzzRandom, keys: inout OrderKeys, passwords: Bool = true) -> [UInt8] {
    switch random.weighted([(88, 0), (3, 1), (3, 2), (4, 3), (2, 4)]) {
    case 0:
      return mangled(grammatical(&random, keys: &keys, from: passwords ? Self.weighted : Self.notHashing), &random)
    case 1: return rawBytes(&random)
    case 2: return longLine(&random)
    case 3:
      return random.pick([
        [], Array(" ".utf8), [0x09], [0x0D], [0x0D, 0x0D], Array("  PING  \t".utf8), Array("\u{FEFF}PING".utf8),
        Array("PING\r\r".utf8), Array("\rPING".utf8), [0x00], Array("PING \"\"".utf8), Array("\"\"".utf8),
        Array("=".utf8), Array("key=value".utf8), Array("PING a\u{2028}b".utf8), Array("HELP\u{0085}".utf8),
      ])
    default: return random.pick(FuzzVocabulary.crossProtocol)
    }
  }

  /// A line of a command that takes a password (LOGIN, REGISTER, PASSWD, USER ADD, USER PASSWD),
  /// mangled now and then like any other.
  func passwordLine(_ random: inout FuzzRandom, keys: inout OrderKeys) -> [UInt8] {
    mangled(grammatical(&random, keys: &keys, from: Self.hashing), &random)
  }

  /// The line that ends a conversation: one over the length limit, a QUIT, or a line of another
  /// protocol.
  func endingLine(_ random: inout FuzzRandom) -> [UInt8] {
    switch random.below(3) {
    case 0: return longLine(&random)
    case 1: return Array(random.pick(["QUIT", "quit", "QUIT now", " QUIT\r"]).utf8)
    default: return random.pick(FuzzVocabulary.crossProtocol)
    }
  }

  /// `words` joined, after none, one or a few mutations of its words and bytes.
  private func mangled(_ original: [String], _ random: inout FuzzRandom) -> [UInt8] {
    var words = original
    let mutations = random.weighted([(55, 0), (25, 1), (12, 2), (8, 3)])
    var byteMutations = 0
    for _ in 0..<mutations {
      if random.percent(50) { mutateWords(&words, &random) } else { byteMutations += 1 }
    }
    var bytes = join(words, &random)
    for _ in 0..<byteMutations { mutateBytes(&bytes, &random) }
    return bytes
  }

  /// A request the table describes, well-formed in shape (values may still be out of range).
  func grammatical(
    _ random: inout FuzzRandom, keys: inout OrderKeys, from commands: [(Int, (path: String, spec: CommandSpec))]
  ) -> [String] {
    let (path, spec) = random.weighted(commands)
    if !spec.examples.isEmpty && random.percent(25) {
      // An example is a whole line already; split into its words, so that mutations act on words.
      let example = random.pick(spec.examples)
      let words = (try? Tokenizer.words(in: example)) ?? []
      return words.map { word in
        guard let key = word.key else { return Quoting.quote(word.text) }
        return key + "=" + Quoting.quote(word.value, isValue: true)
      }
    }
    var words = path.split(separator: " ").map { word in
      switch random.weighted([(80, 0), (15, 1), (5, 2)]) {
      case 0: String(word)
      case 1: word.lowercased()
      default:
        String(word.enumerated().map { $0.offset.isMultiple(of: 2) ? Character($0.element.lowercased()) : $0.element })
      }
    }
    let commandWords = words.count
    let repetitions =
      spec.repeats ? 1 + random.below(random.weighted([(60, 1), (30, 4), (10, 110)])) : 1
    for _ in 0..<repetitions {
      for argument in spec.arguments where !(argument.isOptional && random.percent(spec.repeats ? 30 : 50)) {
        words.append(wire(value(argument.kind, &random), isValue: false, &random))
      }
    }
    var options: [String] = []
    for option in spec.options where random.percent(option.isRequired ? 92 : 35) {
      let text = option.key == .key ? keys.next(&random) : value(option.kind, &random)
      let key = random.percent(10) ? option.key.rawValue.uppercased() : option.key.rawValue
      options.append(key + "=" + wire(text, isValue: true, &random))
    }
    if spec.id == .order && options.isEmpty && random.percent(20) {
      options.append("key=" + Quoting.quote(keys.next(&random), isValue: true))
    }
    if random.percent(4) { options.append(random.pick(["colour=red", "page=1", "size=2", "x=", "KEY=k"])) }
    if random.percent(3), let twice = options.first { options.append(twice) }
    for option in options {
      // Options may stand anywhere after the command words.
      let at = random.percent(70) ? words.count : commandWords + random.below(words.count - commandWords + 1)
      words.insert(option, at: at)
    }
    return words
  }

  /// `text` as a word on the wire: as a client library would write it, or quoted when it need
  /// not be, or with its first character written as a `\u{...}` escape; all mean the same text.
  private func wire(_ text: String, isValue: Bool, _ random: inout FuzzRandom) -> String {
    guard !Quoting.needsQuotes(text, isValue: isValue), let first = text.unicodeScalars.first else {
      return Quoting.quote(text, isValue: isValue)
    }
    switch random.weighted([(85, 0), (10, 1), (5, 2)]) {
    case 0: return text
    case 1: return "\"" + text + "\""
    default:
      return "\"\\u{" + String(first.value, radix: 16) + "}" + String(text.unicodeScalars.dropFirst()) + "\""
    }
  }

  /// A value of `kind`, mostly the kind of thing a user would send, now and then one on a limit.
  func value(_ kind: ArgumentKind, _ random: inout FuzzRandom) -> String {
    switch kind {
    case .item:
      switch random.weighted([(70, 0), (15, 1), (8, 2), (4, 3), (3, 4)]) {
      case 0: random.pick(vocabulary.items)
      case 1: random.pick(FuzzVocabulary.productIDs)
      case 2: random.pick(["banan", "BANANA", "kiwii", "ｋｉｗｉ", "바나나\u{200B}", "soup", "eiffel_tower"])
      case 3: random.pick(vocabulary.sections + vocabulary.exhibits)
      default: random.pick(FuzzVocabulary.numbers)
      }
    case .anything:
      random.pick(vocabulary.items + vocabulary.sections + vocabulary.exhibits + FuzzVocabulary.productIDs)
    case .category: random.pick(FuzzVocabulary.categories)
    case .infoSection:
      random.percent(85) ? random.pick(InfoSection.allCases.map(\.rawValue)) : random.pick(["SERVER", "keyspace", ""])
    case .section: random.percent(85) ? random.pick(vocabulary.sections) : random.pick(vocabulary.items)
    case .quantity: random.percent(80) ? String(random.below(3) + 1) : random.pick(FuzzVocabulary.numbers)
    case .delta:
      switch random.weighted([(55, 0), (15, 1), (10, 2), (20, 3)]) {
      case 0: "+" + String(random.below(50) + 1)
      case 1: String(random.below(50) + 1)
      case 2: "-" + String(random.below(5) + 1)
      default: random.pick(FuzzVocabulary.numbers)
      }
    case .command, .subcommand: random.pick(Self.commandWords)
    case .name: random.percent(75) ? random.pick(FuzzVocabulary.users) : random.pick(FuzzVocabulary.oddNames)
    case .text:
      switch random.weighted([(60, 0), (20, 1), (20, 2)]) {
      case 0: random.pick(FuzzVocabulary.texts)
      case 1: longText(&random)
      default: random.pick(FuzzVocabulary.oddNames)
      }
    case .diaryID: random.percent(75) ? String(random.below(30) + 1) : random.pick(FuzzVocabulary.numbers)
    case .productID: random.pick(FuzzVocabulary.productIDs)
    case .number:
      random.percent(70) ? random.pick(["1", "2", "3", "5", "20", "100"]) : random.pick(FuzzVocabulary.numbers)
    case .money: random.percent(60) ? String(random.below(50_000)) : random.pick(FuzzVocabulary.money)
    case .currency: random.pick(FuzzVocabulary.currencies)
    case .discount: random.pick(FuzzVocabulary.discounts)
    case .password:
      random.percent(80)
        ? LineClient.password(for: random.pick(FuzzVocabulary.users))
        : random.pick(["short", "", "x", "a long wrong passphrase"])
    case .role:
      random.percent(80) ? random.pick(["customer", "staff", "admin"]) : random.pick(["guest", "root", "ADMIN"])
    case .account: random.percent(75) ? random.pick(FuzzVocabulary.users) : random.pick(FuzzVocabulary.oddNames)
    }
  }

  /// Text from a hundred bytes to past the diary body's 16 KiB, some of it one "character" made
  /// of thousands of combining marks.
  private func longText(_ random: inout FuzzRandom) -> String {
    let length = random.skewed(100...20_000)
    switch random.below(4) {
    case 0: return String(repeating: "x", count: length)
    case 1: return String(repeating: "가", count: length / 3)
    case 2: return "a" + String(repeating: "\u{0301}", count: length / 2)
    default: return String(repeating: "line\\n", count: length / 6)
    }
  }

  private func join(_ words: [String], _ random: inout FuzzRandom) -> [UInt8] {
    var bytes: [UInt8] = []
    if random.percent(3) { bytes += Array(random.pick([" ", "\t", "  "]).utf8) }
    for (index, word) in words.enumerated() {
      if index > 0 { bytes += Array(random.weighted([(94, " "), (3, "\t"), (3, "   ")]).utf8) }
      bytes += Array(word.utf8)
    }
    if random.percent(3) { bytes += Array(random.pick([" ", "\t"]).utf8) }
    if random.percent(10) { bytes.append(0x0D) }
    return bytes
  }

  private func mutateWords(_ words: inout [String], _ random: inout FuzzRandom) {
    guard !words.isEmpty else { return }
    let at = random.below(words.count)
    switch random.below(8) {
    case 0: words.swapAt(at, random.below(words.count))
    case 1: words.insert(Quoting.quote(value(random.pick(Self.kinds), &random)), at: at)
    case 2: words.remove(at: at)
    case 3: words.insert(words[at], at: at)
    case 4: words[at] = random.pick(FuzzVocabulary.numbers)
    case 5: words[at] = longWord(&random)
    case 6: words[at] = random.percent(50) ? words[at].uppercased() : words[at].lowercased()
    default: words[at] = Quoting.quote(random.pick(FuzzVocabulary.oddNames + FuzzVocabulary.texts))
    }
  }

  private static let commandWords =
    CommandTable.allWithPaths.map { $0.spec.name } + ["order", "Diary", "ORDR", "NEW", "", "*"]

  private static let kinds: [ArgumentKind] = [
    .item, .anything, .category, .section, .quantity, .delta, .command, .name, .text, .diaryID, .productID, .number,
    .money, .currency, .discount,
  ]

  /// A word from a few bytes to around the line limit.
  private func longWord(_ random: inout FuzzRandom) -> String {
    let length = random.skewed(64...(maxLine + 256))
    switch random.below(3) {
    case 0: return String(repeating: "w", count: length)
    case 1: return "a" + String(repeating: "\u{0301}", count: length / 2)
    default: return Quoting.quote(String(repeating: "말 ", count: length / 4))
    }
  }

  private func mutateBytes(_ bytes: inout [UInt8], _ random: inout FuzzRandom) {
    let at = random.below(bytes.count + 1)
    switch random.below(9) {
    case 0: bytes.insert(UInt8(ascii: "\""), at: at)
    case 1: bytes.insert(contentsOf: Array(("\"" + random.pick(FuzzVocabulary.escapes) + "\"").utf8), at: at)
    case 2: bytes.insert(contentsOf: random.pick(FuzzVocabulary.escapes).utf8, at: at)
    case 3: bytes.insert(contentsOf: random.pick(FuzzVocabulary.invalidUTF8), at: at)
    case 4: bytes.insert(random.pick(FuzzVocabulary.controls), at: at)
    case 5: bytes.insert(contentsOf: random.pick(FuzzVocabulary.oddCharacters).utf8, at: at)
    case 6: bytes.removeSubrange(at...)
    case 7:
      if at < bytes.count { bytes[at] = UInt8(truncatingIfNeeded: random.next() | 0x80) }
    default: bytes += random.pick([[0x0D], [0x0D, 0x0D], [0x0D, 0x20], Array(" \r".utf8)])
    }
  }

  /// Bytes of any value but LF.
  private func rawBytes(_ random: inout FuzzRandom) -> [UInt8] {
    (0..<random.skewed(0...600)).map { _ in
      let byte = UInt8(truncatingIfNeeded: random.next())
      return byte == 0x0A ? 0x0B : byte
    }
  }

  /// A line on, just under or just over the limit (with and without a CR before the LF), or far over.
  private func longLine(_ random: inout FuzzRandom) -> [UInt8] {
    let length = random.pick([
      maxLine - 1, maxLine, maxLine + 1, maxLine + 2, maxLine + 1 + random.below(5000), random.skewed(1000...maxLine),
    ])
    let filler = random.pick(["x", "가", "\u{0301}"])
    var bytes = Array(("PING " + String(repeating: filler, count: length / filler.utf8.count + 1)).utf8)
    bytes.removeLast(bytes.count - length)
    if random.percent(30) { bytes.append(0x0D) }
    return bytes
  }
}

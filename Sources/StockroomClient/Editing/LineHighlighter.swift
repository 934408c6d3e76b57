import StockroomProtocol

/// The line being typed, cut into styled runs as the command table and the server's names
/// read it: the command word known or unknown, each argument by the kind the table gives its
/// place (an item the shop has or not, a number, `key=` an option of the command's or not,
/// quoted text). Nothing hard-coded per command: a command added to the table is read the
/// same way.
///
/// A word still being typed (the cursor's, with no space after it) is left plain while it can
/// still become right (`ORD`, `ORDER 김치`), and marked unknown once nothing it could become
/// is (`ORDX`). Before NAMES has answered no item is called unknown, since none can be checked.
struct LineHighlighter {
  private let itemNames: Set<String>
  private let allNames: Set<String>
  private let productIDs: Set<String>
  private let categories: Set<String>
  private let sections: Set<String>
  private let diaryIDs: Set<String>
  private let knowsNames: Bool

  /// One word of the line as typed; `typing` while the cursor may still be extending it.
  private struct Word {
    var text: String
    var typing: Bool
  }

  init(names: CatalogNames) {
    func words(_ entry: CatalogNames.Entry) -> [String] {
      ([entry.id] + entry.aliases + (entry.name.map { [$0] } ?? [])).map { $0.lowercased() }
    }
    itemNames = Set(names.entries.filter { CatalogNames.itemKinds.contains($0.kind) }.flatMap(words))
    allNames = Set(names.entries.flatMap(words))
    productIDs = Set(names.entries.filter { $0.kind == "product" }.map { $0.id.lowercased() })
    // LIST takes a category's singular too: dish, fruit, order.
    categories = Set(
      names.categories.map { $0.lowercased() }.flatMap { plural in
        let singular = plural.hasSuffix("shes") ? plural.dropLast(2) : plural.hasSuffix("s") ? plural.dropLast() : ""
        return singular.isEmpty ? [plural] : [plural, String(singular)]
      })
    sections = Set(names.entries.filter { $0.kind == "section" }.flatMap(words))
    diaryIDs = Set(names.diaryIDs)
    knowsNames = !names.entries.isEmpty
  }

  /// The runs of `line`, which joined are `line` exactly. What follows an unquoted `|` or `>`
  /// is the shell's, and plain, as is everything after `:!`.
  func spans(_ line: String) -> [LineSpan] {
    var command = Substring(line)
    var tail = Substring("")
    if HistoryPolicy.shouldRemember(line), !line.trimmingSpaces().hasPrefix(":!"),
      let (index, _) = OutputRedirect.firstUnquotedMark(in: line)
    {
      command = line[..<index]
      tail = line[index...]
    }
    let tokens = Self.tokens(command)
    let wordCount = tokens.filter(\.isWord).count
    var words: [Word] = []
    for token in tokens where token.isWord {
      words.append(Word(text: token.text, typing: words.count == wordCount - 1 && tail.isEmpty && token.isLast))
    }
    var styled = wordSpans(words)[...]
    var out: [LineSpan] = []
    for token in tokens {
      if token.isWord, let spans = styled.popFirst() { out += spans } else { out.append(LineSpan(token.text)) }
    }
    if !tail.isEmpty { out.append(LineSpan(String(tail))) }
    return out
  }

  /// Words and the spaces between them, as typed; a space inside double quotes is the word's.
  private static func tokens(_ text: Substring) -> [(text: String, isWord: Bool, isLast: Bool)] {
    var out: [(text: String, isWord: Bool, isLast: Bool)] = []
    var current = ""
    var currentIsWord = false
    var quoted = false
    var escaped = false
    for character in text {
      let isSpace = character == " " && !quoted
      if !current.isEmpty, isSpace == currentIsWord {
        out.append((current, currentIsWord, false))
        current = ""
      }
      currentIsWord = !isSpace
      current.append(character)
      if escaped {
        escaped = false
      } else if quoted, character == "\\" {
        escaped = true
      } else if character == "\"" {
        quoted.toggle()
      }
    }
    if !current.isEmpty { out.append((current, currentIsWord, true)) }
    return out
  }

  /// The runs of each word, in order: the command word, then its arguments.
  private func wordSpans(_ words: [Word]) -> [[LineSpan]] {
    guard let first = words.first else { return [] }
    let head = [LineSpan(first.text, commandStyle(first))]
    let rest = Array(words.dropFirst())
    if first.text.hasPrefix(":") { return [head] + localArguments(of: first.text.lowercased(), rest) }
    guard let spec = CommandTable.command(named: first.text) else { return [head] + rest.map { [LineSpan($0.text)] } }
    return [head] + arguments(rest[...], of: spec)
  }

  private func commandStyle(_ word: Word) -> LineStyle? {
    let lower = word.text.lowercased()
    if word.text.hasPrefix(":") {
      let known = LocalCommand.words + [":quit", ":q"]
      if word.text.hasPrefix(":!") || known.contains(lower) { return .command }
      return word.typing && known.contains { $0.hasPrefix(lower) } ? nil : .unknown
    }
    // QUIT is the server's; quit and exit the client's own way out.
    if CommandTable.command(named: word.text) != nil || ["quit", "exit"].contains(lower) { return .command }
    let upper = word.text.uppercased()
    let could = (CommandTable.commands.map(\.name) + ["EXIT"]).contains { $0.hasPrefix(upper) }
    return word.typing && could ? nil : .unknown
  }

  /// `:json on`, `:watch 2 STOCK banana` (a server line after the seconds); the other client
  /// commands' words are left plain.
  private func localArguments(of command: String, _ words: [Word]) -> [[LineSpan]] {
    guard let first = words.first else { return [] }
    let rest = Array(words.dropFirst())
    if command == ":watch" {
      let seconds = Double(first.text).map { $0 > 0 && $0.isFinite } ?? false
      return [[LineSpan(first.text, seconds ? .number : first.typing ? nil : .unknown)]] + wordSpans(rest)
    }
    guard LocalCommand.switches.contains(command) else { return words.map { [LineSpan($0.text)] } }
    let lower = first.text.lowercased()
    let style: LineStyle? =
      ["on", "off"].contains(lower)
      ? .command : first.typing && ["on", "off"].contains { $0.hasPrefix(lower) } ? nil : .unknown
    return [[LineSpan(first.text, style)]] + rest.map { [LineSpan($0.text, .unknown)] }
  }

  /// A server command's words after the command word: a subcommand, then each word by the
  /// argument or option it is.
  private func arguments(_ words: ArraySlice<Word>, of command: CommandSpec) -> [[LineSpan]] {
    var spec = command
    var words = words
    var out: [[LineSpan]] = []
    if !spec.subcommands.isEmpty, let word = words.popFirst() {
      guard let sub = spec.subcommand(named: word.text) else {
        let could = word.typing && spec.subcommands.contains { $0.name.hasPrefix(word.text.uppercased()) }
        return [[LineSpan(word.text, could ? nil : .unknown)]] + words.map { [LineSpan($0.text)] }
      }
      out.append([LineSpan(word.text, .command)])
      spec = sub
    }
    var index = 0
    for word in words {
      if let equals = Self.optionEquals(word.text) {
        out.append(optionSpans(word, equals: equals, of: spec))
        continue
      }
      // A half-typed `pa` may yet be `page=`: not wrong while an option can still follow.
      if word.typing, spec.options.contains(where: { $0.key.word.hasPrefix(word.text.lowercased()) }) {
        out.append([LineSpan(word.text)])
        continue
      }
      let placed = ArgumentPosition.place(word.text, at: index, in: spec)
      index = placed.next
      out.append([LineSpan(word.text, placed.argument.map { style(of: word, as: $0.kind) } ?? .unknown)])
    }
    return out
  }

  /// Where the `=` of an option word is (`size=5`, not `"a=b"`), as the server tells them.
  private static func optionEquals(_ word: String) -> String.Index? {
    guard let equals = word.firstIndex(of: "="), let head = word.first, head.isLetter || head == "_" else {
      return nil
    }
    return equals
  }

  private func optionSpans(_ word: Word, equals: String.Index, of spec: CommandSpec) -> [LineSpan] {
    let key = word.text[..<equals].lowercased()
    let option = spec.option(named: key)
    var spans = [LineSpan(String(word.text[...equals]), option == nil ? .unknown : .option)]
    let value = String(word.text[word.text.index(after: equals)...])
    guard !value.isEmpty else { return spans }
    let valueWord = Word(text: value, typing: word.typing)
    spans.append(LineSpan(value, option.map { style(of: valueWord, as: $0.kind) } ?? nil))
    return spans
  }

  /// A word in a place the table gives `kind`.
  private func style(of word: Word, as kind: ArgumentKind) -> LineStyle? {
    let text = word.text
    switch kind {
    case .quantity, .number, .delta:
      if ArgumentPosition.fits(text, kind) { return .number }
      return word.typing && (text == "+" || text == "-") ? nil : .unknown
    case .item: return name(Self.unquoted(text), in: itemNames, typing: word.typing)
    case .productID: return name(text, in: productIDs, typing: word.typing)
    // NAMES lists everything SHOW takes (items, sections, exhibits, products) and every section.
    case .anything: return name(Self.unquoted(text), in: allNames, typing: word.typing)
    case .section: return name(Self.unquoted(text), in: sections, typing: word.typing)
    case .category:
      guard !categories.isEmpty else { return nil }
      return name(text, in: categories, typing: word.typing)
    // Diary ids are numbers; the newest hundred are known to the client, older ones may exist.
    case .diaryID:
      if diaryIDs.contains(text) { return .item }
      return text.allSatisfy(\.isNumber) ? nil : .unknown
    case .command:
      let known = CommandTable.command(named: text) != nil || HelpText.groups.contains { "@" + $0 == text.lowercased() }
      return known ? .command : nil
    case .role:
      if Role.accountRoles.contains(where: { $0.rawValue == text.lowercased() }) { return .item }
      return word.typing && Role.accountRoles.contains { $0.rawValue.hasPrefix(text.lowercased()) } ? nil : .unknown
    // A password is typed as any other text, and shown as plainly.
    case .password: return nil
    default: return text.hasPrefix("\"") ? .quoted : nil
    }
  }

  /// Known when the server named it, in any case; unknown once nothing it names could be.
  private func name(_ value: String, in pool: Set<String>, typing: Bool) -> LineStyle? {
    guard knowsNames else { return nil }
    let lower = value.lowercased()
    if pool.contains(lower) { return .item }
    return typing && pool.contains { $0.hasPrefix(lower) } ? nil : .unknown
  }

  /// A double-quoted word's text, its escapes read; an open quote counts as closed at the end.
  private static func unquoted(_ text: String) -> String {
    guard text.hasPrefix("\"") else { return text }
    var out = ""
    var escaped = false
    for character in text.dropFirst() {
      if escaped {
        out.append(character)
        escaped = false
      } else if character == "\\" {
        escaped = true
      } else if character == "\"" {
        break
      } else {
        out.append(character)
      }
    }
    return out
  }
}

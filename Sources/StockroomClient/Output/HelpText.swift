import StockroomProtocol
import StockroomText

/// HELP answered locally from the command table, with examples.
public enum HelpText {
  /// `width` is the terminal's (80 for a file): each line wraps at spaces within it, its
  /// continuation indented under the text it continues. Nil (`--wide`) wraps nothing.
  public static func render(_ words: [String], palette: Palette, width: Int? = nil) -> String {
    let text = unwrapped(words, palette: palette)
    guard let width else { return text }
    return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { line in
      wrap(String(line), width: width).map { $0 + "\n" }.joined()
    }.joined()
  }

  /// One line of HELP within `width`: its indent and first column kept as they are, the text
  /// after them wrapped at spaces and continued under where it started (`  ORDER   Orders...`).
  private static func wrap(_ line: String, width: Int) -> [String] {
    guard DisplayWidth.of(line) > width else { return [line] }
    let indent = line.prefix { $0 == " " }.count
    var head = String(repeating: " ", count: indent)
    var body = String(line.dropFirst(indent))
    if let gap = body.range(of: "  ") {
      let start = body[gap.lowerBound...].firstIndex { $0 != " " } ?? body.endIndex
      let column = head + body[..<start]
      // A first column so wide that little room is left goes on a line of its own.
      if width - DisplayWidth.of(column) >= 20 {
        head = column
        body = String(body[start...])
      }
    }
    let hanging = DisplayWidth.of(head) + (head.count == indent ? 2 : 0)
    let first = TextWrap.lines(body, width: width - DisplayWidth.of(head))
    guard let opening = first.first else { return [line] }
    let rest = TextWrap.lines(first.dropFirst().joined(separator: " "), width: width - hanging)
    let pad = String(repeating: " ", count: hanging)
    return [head + opening] + (first.count > 1 ? rest.map { pad + $0 } : [])
  }

  /// Whether HELP with these words answers OK: no words, a known command or a known group.
  public static func isKnown(_ words: [String]) -> Bool {
    guard let first = words.first else { return true }
    if first.hasPrefix("@") {
      return first.dropFirst().lowercased() == clientGroup || (try? CommandGroup.named(first)) != nil
    }
    return CommandTable.command(named: first) != nil
  }

  private static func unwrapped(_ words: [String], palette: Palette) -> String {
    guard let first = words.first else { return overview(palette: palette) }
    if first.hasPrefix("@") { return group(String(first.dropFirst()), palette: palette) }
    guard var spec = CommandTable.command(named: first) else {
      // The same guess the server makes for a mistyped command, so both say the same thing.
      var message = "ERR UNKNOWN no command '\(first)'"
      if let guess = NameSuggestion.closest(to: first, among: CommandTable.commands.map(\.name)) {
        message += "; did you mean \(guess)?"
      } else {
        message += "; HELP lists them"
      }
      return palette.error(message) + "\n"
    }
    var path = spec.name
    if let second = words.dropFirst().first, let sub = spec.subcommand(named: second) {
      spec = sub
      path += " " + sub.name
    }
    var lines: [String] = []
    lines.append(palette.header(spec.usage(path: path)))
    lines.append("  " + spec.summary)
    if !spec.options.isEmpty {
      lines.append("")
      lines.append(palette.header("options"))
      let width = spec.options.map { DisplayWidth.of($0.key.word) }.max() ?? 0
      for option in spec.options {
        lines.append("  " + DisplayWidth.padRight(option.key.word, to: width) + "  " + option.summary)
      }
    }
    if !spec.subcommands.isEmpty {
      lines.append("")
      lines.append(palette.header("subcommands"))
      // Synopses run long (PRODUCT NEW), so the summary goes on its own line.
      for sub in spec.subcommands {
        lines.append("  " + sub.usage(path: "\(path) \(sub.name)"))
        lines.append("      " + palette.dim(sub.summary))
      }
    }
    var examples: [String] = []
    for example in spec.examples + spec.subcommands.flatMap(\.examples)
    where !examples.contains(example) {
      examples.append(example)
    }
    if !examples.isEmpty {
      lines.append("")
      lines.append(palette.header("examples"))
      lines += examples.map { "  " + $0 }
    }
    return lines.map { $0 + "\n" }.joined()
  }

  /// The server's command groups (`CommandGroup`), then the client's own commands as `client`.
  public static var groups: [String] { CommandGroup.allCases.map(\.rawValue) + [clientGroup] }

  private static let clientGroup = "client"

  /// `HELP @shop`: one group's commands, from the same table the server answers from; an
  /// unknown group gets the server's error, with the client's own group among the names.
  private static func group(_ name: String, palette: Palette) -> String {
    if name.lowercased() == clientGroup { return clientLines(palette: palette).map { $0 + "\n" }.joined() }
    guard let group = try? CommandGroup.named("@" + name) else {
      let error = CommandGroup.unknown("@" + name, among: groups)
      return palette.error(error.description) + "\n"
    }
    return groupLines(group, palette: palette).map { $0 + "\n" }.joined()
  }

  private static func groupLines(_ group: CommandGroup, palette: Palette) -> [String] {
    var lines = [palette.header(group.rawValue)]
    let width = CommandTable.commands.map { DisplayWidth.of($0.name) }.max() ?? 0
    for spec in group.commands {
      lines.append("  " + DisplayWidth.padRight(spec.name, to: width) + "  " + spec.summary)
    }
    return lines
  }

  private static func clientLines(palette: Palette) -> [String] {
    [
      palette.header(clientGroup),
      "  :clear     clear the screen",
      "  :history   show the command history",
      "  :json on|off   print replies as JSON objects, or as tables",
      "  :timing on|off   say how long each command took",
      "  :pager on|off    page replies taller than the screen ($PAGER, less -FRX)",
      "  :top       the live board: stock, recent orders, who is connected; q returns",
    ]
  }

  private static func overview(palette: Palette) -> String {
    var lines: [String] = []
    for group in CommandGroup.allCases { lines += groupLines(group, palette: palette) }
    lines += clientLines(palette: palette)
    lines.append("")
    lines.append("HELP <command> shows its arguments and examples; HELP @<group> lists one group.")
    lines.append("Tab completes; Ctrl-R searches history.")
    return lines.map { $0 + "\n" }.joined()
  }
}

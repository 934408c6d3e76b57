import StockroomProtocol
import StockroomText

/// HELP answered locally from the command table, with examples.
public enum HelpText {
  public static func render(_ words: [String], palette: Palette) -> String {
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
      let width = spec.options.map { DisplayWidth.of($0.key) + 1 }.max() ?? 0
      for option in spec.options {
        lines.append("  " + DisplayWidth.padRight(option.key + "=", to: width) + "  " + option.summary)
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

  /// The command groups in table order, then the client's own commands as `client`.
  public static var groups: [String] {
    var groups: [String] = []
    for spec in CommandTable.commands where !groups.contains(spec.group) { groups.append(spec.group) }
    return groups + [clientGroup]
  }

  private static let clientGroup = "client"

  /// `HELP @shop`: one group's commands; an unknown group lists the known ones, since a
  /// person who asks for a group by name is looking for that list.
  private static func group(_ name: String, palette: Palette) -> String {
    let known = groups
    guard let group = known.first(where: { $0.lowercased() == name.lowercased() }) else {
      var message = "ERR UNKNOWN no group '@\(name)'"
      if let guess = NameSuggestion.closest(to: name, among: known) { message += "; did you mean @\(guess)?" }
      message += (message.hasSuffix("?") ? " " : "; ") + "groups: " + known.map { "@" + $0 }.joined(separator: " ")
      return palette.error(message) + "\n"
    }
    return groupLines(group, palette: palette).map { $0 + "\n" }.joined()
  }

  private static func groupLines(_ group: String, palette: Palette) -> [String] {
    var lines = [palette.header(group)]
    guard group != clientGroup else {
      lines.append("  :clear     clear the screen")
      lines.append("  :history   show the command history")
      lines.append("  :json on|off   print replies as JSON objects, or as tables")
      lines.append("  :top       the live board: stock, recent orders, who is connected; q returns")
      return lines
    }
    let width = CommandTable.commands.map { DisplayWidth.of($0.name) }.max() ?? 0
    for spec in CommandTable.commands where spec.group == group {
      lines.append("  " + DisplayWidth.padRight(spec.name, to: width) + "  " + spec.summary)
    }
    return lines
  }

  private static func overview(palette: Palette) -> String {
    var lines: [String] = []
    for group in groups { lines += groupLines(group, palette: palette) }
    lines.append("")
    lines.append("HELP <command> shows its arguments and examples; HELP @<group> lists one group.")
    lines.append("Tab completes; Ctrl-R searches history.")
    return lines.map { $0 + "\n" }.joined()
  }
}

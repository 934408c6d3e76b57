import StockroomProtocol

/// HELP answered locally from the command table, with examples.
public enum HelpText {
  public static func render(_ words: [String], palette: Palette) -> String {
    guard let first = words.first else { return overview(palette: palette) }
    guard var spec = CommandTable.command(named: first) else {
      return palette.error("ERR UNKNOWN no command '\(first)'; HELP lists them") + "\n"
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

  private static func overview(palette: Palette) -> String {
    var lines: [String] = []
    var groups: [String] = []
    for spec in CommandTable.commands where !groups.contains(spec.group) { groups.append(spec.group) }
    let width = CommandTable.commands.map { DisplayWidth.of($0.name) }.max() ?? 0
    for group in groups {
      lines.append(palette.header(group))
      for spec in CommandTable.commands where spec.group == group {
        lines.append("  " + DisplayWidth.padRight(spec.name, to: width) + "  " + spec.summary)
      }
    }
    lines.append(palette.header("client"))
    lines.append("  :clear     clear the screen")
    lines.append("  :history   show the command history")
    lines.append("  :json on|off   print replies as JSON objects, or as tables")
    lines.append("")
    lines.append("HELP <command> shows its arguments and examples; Tab completes; Ctrl-R searches history.")
    return lines.map { $0 + "\n" }.joined()
  }
}

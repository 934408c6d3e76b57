import StockroomText

/// Protocol.md's one-page summary, written from the command table: every command and
/// subcommand on one line, with who may use it and what it does, linked to its section. A test
/// keeps the summary in Protocol.md equal to this.
public enum CommandSummary {
  /// The lines that open and close the summary in Protocol.md.
  public static let begin = "<!-- command summary: generated from the command table; do not edit -->"
  public static let end = "<!-- end of command summary -->"

  public static var markdown: String {
    let rows = CommandTable.allWithPaths.map { path, spec in
      let anchor = path.lowercased().replacing(" ", with: "-")
      return ["[`\(spec.usage(path: path))`](#\(anchor))", spec.role.rawValue, spec.summary]
    }
    return MarkdownTable.text(header: ["Command", "Who", "What"], rows: rows)
  }
}

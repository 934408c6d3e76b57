import Foundation

/// A Markdown table as GitHub renders it: a header, a rule, and a row per entry, each cell on
/// one line with its `|` escaped; a help text's items (`--fsync`'s three modes) are kept apart
/// by `<br>`, and its wrapped sentences joined.
public enum MarkdownTable {
  public static func text(header: [String], rows: [[String]]) -> String {
    let lines = [header, header.map { _ in "---" }] + rows
    return lines.map { cells in "| " + cells.map(cell).joined(separator: " | ") + " |" }.joined(separator: "\n")
  }

  /// `text` as code (`--port PORT`), for a cell.
  public static func code(_ text: String) -> String { "`" + text + "`" }

  static func cell(_ text: String) -> String {
    HelpColumns.logicalLines(text).joined(separator: "<br>")
      .replacingOccurrences(of: "|", with: "\\|")
  }
}

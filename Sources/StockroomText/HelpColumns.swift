import Foundation

/// The two columns of a `--help` text: each option's synopsis, and its help beside it from
/// column 24, or under it when the synopsis leaves no room; later lines of the help go under
/// the first. `stockroomd --help` and `stockroom --help` are laid out alike.
public enum HelpColumns {
  static let width = 23

  public static func text(_ entries: [(synopsis: String, help: String)]) -> String {
    let column = String(repeating: " ", count: width)
    return entries.map { entry in
      let lines = entry.help.split(separator: "\n", omittingEmptySubsequences: false)
      let head = "  " + entry.synopsis
      var text =
        head.count < width
        ? head.padding(toLength: width, withPad: " ", startingAt: 0) + lines[0] : head + "\n" + column + lines[0]
      for line in lines.dropFirst() { text += "\n" + column + line }
      return text
    }.joined(separator: "\n")
  }

  /// A help text's lines as a reader means them, for pages that fill their own lines (a man
  /// page, a table cell): a line that only goes on with the sentence before it is joined to
  /// it, and one that starts an item of its own (`batch: ...`, `(a crash ...)`) stays apart.
  public static func logicalLines(_ help: String) -> [String] {
    var lines: [String] = []
    for line in help.split(separator: "\n") {
      let text = line.trimmingCharacters(in: .whitespaces)
      if let last = lines.last, text.firstMatch(of: /^([A-Za-z][A-Za-z -]*: |\()/) == nil {
        lines[lines.count - 1] = last + " " + text
      } else {
        lines.append(text)
      }
    }
    return lines
  }
}

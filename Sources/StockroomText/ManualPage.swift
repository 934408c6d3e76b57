import Foundation

/// A man page in roff's `man` macros, written from the same tables as `--help`: a page is its
/// header and sections, each a paragraph or a list of terms with their text. Nothing in it
/// depends on the date or the machine, so the page a test makes is the page committed.
public struct ManualPage {
  public enum Block {
    case paragraph(String)
    /// A term (an option, a key) and what it does, as `.TP` lays them out.
    case entries([(term: String, text: String)])
    /// Lines shown as they are (`.nf`), for examples.
    case verbatim([String])
  }

  public let name: String
  public let section: Int
  /// The centre of the header, `Stockroom Manual`; the left of the footer is the release.
  public let manual: String
  public let release: String
  public private(set) var sections: [(title: String, blocks: [Block])] = []

  public init(name: String, section: Int, manual: String, release: String) {
    self.name = name
    self.section = section
    self.manual = manual
    self.release = release
  }

  public mutating func add(_ title: String, _ blocks: Block...) {
    sections.append((title, blocks))
  }

  /// The sections every page ends with, in the order man-pages(7) gives them. Each of the first
  /// three is written as a page shows it, a term and its text a line, the two apart by two
  /// spaces or more: `STOCKROOM_IO  epoll or dispatch, as --io`.
  public mutating func addClosing(environment: String, files: String, exitStatus: String, seeAlso: String) {
    add("Environment", .entries(Self.entries(environment)))
    add("Files", .entries(Self.entries(files)))
    add("Exit status", .entries(Self.entries(exitStatus)))
    add("See also", .paragraph(seeAlso))
  }

  /// `TERM  text` lines as entries.
  static func entries(_ columns: String) -> [(term: String, text: String)] {
    columns.split(separator: "\n").map { line in
      guard let gap = line.range(of: "  ") else { return (String(line), "") }
      return (String(line[..<gap.lowerBound]), line[gap.upperBound...].trimmingCharacters(in: .whitespaces))
    }
  }

  /// The one command that writes every generated reference and man page again from the tables,
  /// and that the check's failure prints.
  public static let regenerateCommand = "STOCKROOM_WRITE_DOCS=1 swift test --filter ReferenceDocsTests"

  public var roff: String {
    var lines = [
      ".\\\" Generated from Stockroom's option and command tables; do not edit. Regenerate with:",
      ".\\\" \(Self.regenerateCommand)",
      ".TH \(name.uppercased()) \(section) \"\" \"\(Self.escaped(release))\" \"\(Self.escaped(manual))\"",
    ]
    for (title, blocks) in sections {
      lines.append(".SH \(title.uppercased())")
      for (index, block) in blocks.enumerated() {
        if index > 0 { lines.append(".PP") }
        lines += Self.lines(of: block)
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  private static func lines(of block: Block) -> [String] {
    switch block {
    case .paragraph(let text):
      return text.split(separator: "\n").map { escaped(String($0)) }
    case .entries(let entries):
      return entries.flatMap { entry -> [String] in
        var lines = [".TP", "\\fB" + escaped(entry.term) + "\\fR"]
        // Each item of the text (`--fsync`'s modes) on a line of its own; roff fills the rest.
        for (index, line) in HelpColumns.logicalLines(entry.text).enumerated() {
          if index > 0 { lines.append(".br") }
          lines.append(escaped(String(line)))
        }
        return lines
      }
    case .verbatim(let text):
      return [".nf", ".RS 4"] + text.map(escaped) + [".RE", ".fi"]
    }
  }

  /// Text roff prints as written: a backslash is `\e`, a hyphen a real minus `\-` (so options
  /// can be searched for and pasted), and a line that would start with a control character
  /// (`.` or `'`) starts with the zero-width `\&` instead.
  public static func escaped(_ text: String) -> String {
    var out = text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
    if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
    return out
  }
}

import Foundation

/// What a link checker needs of one Markdown file: the links it makes and the anchors its
/// headings get, as GitHub renders them. Code (fenced blocks and `code spans`) and HTML
/// comments hold no links, since GitHub shows them as text.
struct MarkdownDocument {
  struct Link: CustomStringConvertible {
    /// The 1-based line the link is on, for the failure message.
    var line: Int
    var target: String
    var description: String { "line \(line): (\(target))" }
  }

  /// The file's text without code and comments, line for line (so line numbers hold).
  let prose: [String]
  /// The headings, in order, as their text reads without Markdown.
  let headings: [String]

  init(_ text: String) {
    var prose: [String] = []
    var headings: [String] = []
    var fence: String?
    for line in Self.withoutComments(text).split(separator: "\n", omittingEmptySubsequences: false) {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if let open = fence {
        if trimmed.hasPrefix(open) && trimmed.allSatisfy({ $0 == open.first }) { fence = nil }
        prose.append("")
        continue
      }
      if let match = trimmed.firstMatch(of: /^(```+|~~~+)/) {
        fence = String(match.1)
        prose.append("")
        continue
      }
      let text = String(line).replacing(/`+[^`]*`+/, with: "")
      if let heading = line.firstMatch(of: /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/) {
        headings.append(Self.plain(String(heading.1)))
      }
      prose.append(text)
    }
    self.prose = prose
    self.headings = headings
  }

  /// Every link with a target: `[text](target)`, `![alt](target)` and `[id]: target`.
  var links: [Link] {
    var links: [Link] = []
    for (index, line) in prose.enumerated() {
      for match in line.matches(of: /\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/) {
        links.append(Link(line: index + 1, target: String(match.1)))
      }
      if let definition = line.firstMatch(of: /^ {0,3}\[[^\]]+\]:\s+<?([^\s>]+)>?/) {
        links.append(Link(line: index + 1, target: String(definition.1)))
      }
    }
    return links
  }

  /// The anchors GitHub gives the headings (github-slugger): lower case, every character that is
  /// not a letter, a digit, a mark, `_`, `-` or a space left out, spaces made hyphens, and a
  /// repeated one numbered `-1`, `-2`, ...; and any `id=` or `name=` an HTML tag gives.
  var anchors: Set<String> {
    var seen: [String: Int] = [:]
    var anchors: Set<String> = []
    for heading in headings {
      let slug = Self.slug(heading)
      let count = seen[slug, default: 0]
      seen[slug] = count + 1
      anchors.insert(count == 0 ? slug : "\(slug)-\(count)")
    }
    for line in prose {
      for match in line.matches(of: /<[a-zA-Z][^>]*\s(?:id|name)="([^"]+)"/) { anchors.insert(String(match.1)) }
    }
    return anchors
  }

  static func slug(_ heading: String) -> String {
    let kept = heading.lowercased().unicodeScalars.filter { scalar in
      switch scalar.properties.generalCategory {
      case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
        .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber,
        .connectorPunctuation:
        return true
      default:
        return scalar == "-" || scalar == " "
      }
    }
    return String(String.UnicodeScalarView(kept)).replacingOccurrences(of: " ", with: "-")
  }

  /// A heading's text as it reads: code spans, emphasis and links reduced to their words.
  static func plain(_ markdown: String) -> String {
    markdown.replacing(/!?\[([^\]]*)\]\([^)]*\)/) { String($0.1) }
      .replacing(/`+([^`]*)`+/) { String($0.1) }
      .replacing(/(\*\*|__|\*|_)(\S(?:.*?\S)?)\1/) { String($0.2) }
      .trimmingCharacters(in: .whitespaces)
  }

  /// The text with each HTML comment's characters blanked out, newlines kept.
  private static func withoutComments(_ text: String) -> String {
    text.replacing(/<!--[\s\S]*?-->/) { match in
      String(match.output.map { $0 == "\n" ? "\n" : " " })
    }
  }
}

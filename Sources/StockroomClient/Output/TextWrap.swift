/// Text broken into lines of a display width at spaces, never inside a word unless one word
/// is wider than a whole line.
public enum TextWrap {
  /// `hanging` indents the lines a long line was broken into, not those after a line break
  /// of the text's own, so a reader can tell a wrapped line from a new one.
  public static func lines(_ text: String, width: Int, hanging: Int = 0) -> [String] {
    guard width > 0 else { return [text] }
    if hanging > 0 && width > hanging + 1 {
      return text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { paragraph in
        let first = lines(String(paragraph), width: width)
        guard first.count > 1 else { return first }
        let rest = lines(first.dropFirst().joined(separator: " "), width: width - hanging)
        return [first[0]] + rest.map { String(repeating: " ", count: hanging) + $0 }
      }
    }
    var out: [String] = []
    // A tab has no width of its own on a terminal that could be counted here.
    let text = text.replacingOccurrences(of: "\t", with: " ")
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
      var line = ""
      var used = 0
      for piece in paragraph.split(separator: " ") {
        var word = String(piece)
        var cells = DisplayWidth.of(word)
        if used > 0 && used + 1 + cells <= width {
          line += " " + word
          used += 1 + cells
          continue
        }
        if used > 0 {
          out.append(line)
          line = ""
          used = 0
        }
        while cells > width {
          let (head, rest) = split(word, at: width)
          out.append(head)
          word = rest
          cells = DisplayWidth.of(word)
        }
        line = word
        used = cells
      }
      out.append(line)
    }
    return out
  }

  /// The first `width` cells of a word too long for any line, and the rest.
  private static func split(_ word: String, at width: Int) -> (String, String) {
    var head = ""
    var used = 0
    var index = word.startIndex
    while index < word.endIndex {
      let cells = DisplayWidth.of(String(word[index]))
      if used + cells > width && !head.isEmpty { break }
      head.append(word[index])
      used += cells
      index = word.index(after: index)
    }
    return (head, String(word[index...]))
  }

  /// The longest word, which is as narrow as a wrapped column can get.
  static func longestWord(_ text: String) -> Int {
    text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).map { DisplayWidth.of($0) }.max() ?? 0
  }
}

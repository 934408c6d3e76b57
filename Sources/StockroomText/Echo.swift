/// A client's word as an error message quotes it back: short, on one line, nothing hidden.
///
/// A word can be as long as a request line (64 KiB by default); echoing all of it would turn a
/// typo into a reply as large as the request. Messages quote at most `maximumCharacters`
/// characters and `maximumBytes` bytes of it, then `…`. Controls, line separators, format
/// characters (zero-width, bidi overrides and isolates) and unassigned code points are shown as
/// `\u{h}`, so a message can neither break its line nor reorder the text around it.
public enum Echo {
  public static let maximumCharacters = 64
  public static let maximumBytes = 256

  /// `'banan'`, `'xxxx…'`, `'ali\u{202e}ce'`.
  public static func quoted(_ word: String) -> String {
    "'" + bounded(word) + "'"
  }

  /// The same without the quotes, for words that cannot hold spaces such as option keys.
  public static func bounded(_ word: String) -> String {
    var out = ""
    var bytes = 0
    var characters = 0
    var cut = false
    for character in word {
      guard characters < maximumCharacters else {
        cut = true
        break
      }
      var piece = ""
      for scalar in character.unicodeScalars { appendVisible(scalar, to: &piece) }
      if bytes + piece.utf8.count <= maximumBytes {
        out += piece
        bytes += piece.utf8.count
        characters += 1
        continue
      }
      // One character can be most of the word (a letter with thousands of marks): keep what fits.
      for scalar in character.unicodeScalars {
        var one = ""
        appendVisible(scalar, to: &one)
        guard bytes + one.utf8.count <= maximumBytes else { break }
        out += one
        bytes += one.utf8.count
      }
      cut = true
      break
    }
    if cut { out += "…" }
    return out
  }

  private static func appendVisible(_ scalar: Unicode.Scalar, to out: inout String) {
    switch scalar.properties.generalCategory {
    case .control, .format, .lineSeparator, .paragraphSeparator, .unassigned, .privateUse, .surrogate:
      out += "\\u{" + String(scalar.value, radix: 16) + "}"
    default:
      out.unicodeScalars.append(scalar)
    }
  }
}

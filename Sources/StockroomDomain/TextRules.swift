import Foundation
import StockroomText

/// What text the shop keeps from clients, for every field in one place.
///
/// Stored text is shown to other people (product names, user names in events and lists), so it
/// may not hide text, reorder it, or break the line it is written on:
/// - no control characters (Cc), except tab and line breaks in multi-line text;
/// - no line or paragraph separators (U+2028, U+2029, U+0085) in one-line text;
/// - no format characters (Cf: zero-width space, byte-order mark, bidi embeddings, overrides and
///   isolates, tag characters), except a zero-width joiner or non-joiner right after a visible
///   character, which emoji sequences and several scripts need;
/// - no private-use, unassigned or noncharacter code points;
/// - no character (grapheme cluster) of more than `maximumScalarsPerCharacter` code points;
/// - not starting with a combining mark, and a required field shows at least one visible character.
///
/// User names (`userName(_:)`) are stricter, since people tell each other apart by them.
public enum TextRules {
  /// Emoji sequences and the longest clusters of real scripts take well under 16 code points; a
  /// longer run of combining marks only makes text tall and costly.
  public static let maximumScalarsPerCharacter = 32

  public static let userName = TextField("a user name", characters: 1...32, bytes: 1...128, lines: .one)

  /// Refuses `text` unless it fits `field`.
  public static func check(_ text: String, as field: TextField) throws(ShopError) {
    try check(text, as: field, isName: false)
  }

  /// The user name `raw` stands for, NFC-normalized, or why it cannot be one.
  ///
  /// Besides the rules for all text: no whitespace, `"`, `=` or `,` (names are written bare in
  /// rows and events), no invisible character anywhere (zero-width joiners only inside a conjunct,
  /// right after a virama), not only digits, and no fullwidth forms of ASCII (U+FF01-U+FF5E),
  /// which look like the ASCII name someone else may hold; the message suggests that name.
  /// Compatibility folding (NFKC) as a whole is not applied: it would also rewrite Hangul
  /// compatibility jamo and other text people type on purpose.
  public static func userName(_ raw: String) throws(ShopError) -> String {
    // Bytes first, so normalizing never works on more than a name's worth of text.
    guard raw.utf8.count <= userName.bytes.upperBound else { throw sizeError(userName) }
    let name = raw.precomposedStringWithCanonicalMapping
    if name.unicodeScalars.contains(where: { (0xFF01...0xFF5E).contains($0.value) }) {
      let ascii = String(
        String.UnicodeScalarView(
          name.unicodeScalars.map { scalar in
            (0xFF01...0xFF5E).contains(scalar.value) ? Unicode.Scalar(scalar.value - 0xFEE0)! : scalar
          }))
      throw ShopError(
        .invalid, "a user name may not use fullwidth letters, digits or signs; write \(Echo.quoted(ascii)) instead")
    }
    try check(name, as: userName, isName: true)
    if name.allSatisfy(\.isNumber) {
      throw ShopError(.invalid, "a user name may not be only digits")
    }
    return name
  }

  static func check(_ text: String, as field: TextField, isName: Bool) throws(ShopError) {
    guard field.bytes.contains(text.utf8.count) else { throw sizeError(field) }
    var previous: Unicode.Scalar? = nil
    var visible = false
    for scalar in text.unicodeScalars {
      if let problem = problem(with: scalar, after: previous, lines: field.lines, isName: isName) {
        throw ShopError(.invalid, "\(field.what) may not contain \(codePoint(scalar)) (\(problem))")
      }
      if previous == nil && isCombining(scalar) {
        throw ShopError(.invalid, "\(field.what) may not start with a combining mark")
      }
      visible = visible || isVisibleBase(scalar)
      previous = scalar
    }
    var characters = 0
    for character in text {
      characters += 1
      guard character.unicodeScalars.count <= maximumScalarsPerCharacter else {
        throw ShopError(
          .invalid,
          "\(field.what) may not contain a character built from more than \(maximumScalarsPerCharacter) code points")
      }
    }
    if let range = field.characters, !range.contains(characters) { throw sizeError(field) }
    if field.isRequired && !visible {
      throw ShopError(.invalid, "\(field.what) needs at least one visible character")
    }
  }

  /// The one message for a field's size, so people learn all of its bounds at once.
  private static func sizeError(_ field: TextField) -> ShopError {
    var message = "\(field.what) is "
    if let characters = field.characters {
      message +=
        "\(characters.lowerBound) to \(characters.upperBound) characters (at most \(field.bytes.upperBound) bytes)"
    } else if field.bytes.lowerBound > 0 {
      message += "\(field.bytes.lowerBound) to \(field.bytes.upperBound) bytes"
    } else {
      message += "at most \(field.bytes.upperBound) bytes"
    }
    if field.lines == .one { message += " on one line" }
    return ShopError(.invalid, message)
  }

  /// Why `scalar` may not appear in such text, or nil when it may.
  static func problem(
    with scalar: Unicode.Scalar, after previous: Unicode.Scalar?, lines: TextField.Lines, isName: Bool
  )
    -> String?
  {
    switch scalar.value {
    case 0x09: return lines == .many ? nil : "a tab"
    case 0x0A, 0x0D, 0x85, 0x2028, 0x2029: return lines == .many ? nil : "a line break"
    default: break
    }
    let properties = scalar.properties
    switch properties.generalCategory {
    case .control:
      return "a control character"
    case .format:
      if isBidiControl(scalar) { return "a bidirectional-text control" }
      if scalar.value == 0x200C || scalar.value == 0x200D, let previous, joins(after: previous, isName: isName) {
        return nil
      }
      return "an invisible format character"
    case .privateUse:
      return "a private-use character"
    case .unassigned:
      return properties.isNoncharacterCodePoint ? "a noncharacter" : "an unassigned code point"
    case .surrogate:
      return "a surrogate"
    default:
      break
    }
    guard isName else { return nil }
    if properties.isWhitespace { return "a space" }
    if scalar == "\"" || scalar == "=" || scalar == "," { return "a quote, = or comma" }
    if properties.isDefaultIgnorableCodePoint { return "an invisible character" }
    return nil
  }

  /// Embeddings, overrides, isolates and marks that change the order text is shown in.
  static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
  }

  /// A zero-width (non-)joiner joins two visible characters; in a name only a conjunct after a
  /// virama, as in RFC 5892's contextual rule, so that `ali` + ZWJ + `ce` is not a second alice.
  private static func joins(after previous: Unicode.Scalar, isName: Bool) -> Bool {
    if isName { return previous.properties.canonicalCombiningClass.rawValue == 9 }
    return isVisibleBase(previous) || isCombining(previous)
  }

  static func isCombining(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .spacingMark, .enclosingMark: true
    default: false
    }
  }

  /// A character that shows on its own: not a space, a mark, a control or an invisible filler.
  static func isVisibleBase(_ scalar: Unicode.Scalar) -> Bool {
    let properties = scalar.properties
    switch properties.generalCategory {
    case .nonspacingMark, .spacingMark, .enclosingMark, .control, .format, .spaceSeparator, .lineSeparator,
      .paragraphSeparator, .unassigned, .privateUse, .surrogate:
      return false
    default:
      return !properties.isDefaultIgnorableCodePoint && !properties.isWhitespace
    }
  }

  /// `U+202E`, as Unicode writes code points.
  static func codePoint(_ scalar: Unicode.Scalar) -> String {
    let hex = String(scalar.value, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
  }
}

import StockroomText

/// Writes words so that `Tokenizer` reads them back unchanged.
///
/// Besides the ASCII controls, a written word never holds raw C1 controls (U+0080-U+009F, NEL
/// among them), line or paragraph separators (U+2028, U+2029) or bidi controls: clients that split
/// lines the Unicode way would cut a line at the first, and the others reorder what a terminal
/// shows. They are written as `\u{h}`, which every reader of the grammar turns back into the
/// character.
public enum Quoting {
  /// The word as it should appear on the wire: bare when that is unambiguous, quoted otherwise.
  ///
  /// `=` forces quotes only where a reader could take the word for an option (`isValue` false).
  public static func quote(_ text: String, isValue: Bool = false) -> String {
    var out = ""
    append(text, isValue: isValue, to: &out)
    return out
  }

  public static func needsQuotes(_ text: String, isValue: Bool = false) -> Bool {
    if text.isEmpty { return true }
    let answer = text.utf8.withContiguousStorageIfAvailable { needsQuotes($0, isValue: isValue) }
    return answer ?? Array(text.utf8).withUnsafeBufferPointer { needsQuotes($0, isValue: isValue) }
  }

  static func needsQuotes(_ bytes: UnsafeBufferPointer<UInt8>, isValue: Bool) -> Bool {
    // Nearly every word is plain printable ASCII: that is seen eight bytes at a time, a short word
    // at once (the switch below costs ~17 instructions a byte), and only a word that is not plain
    // is looked at byte by byte.
    if EightBytes.allSatisfy(bytes, filler: UInt8(ascii: "a"), { isPlain($0, isValue: isValue) }) { return false }
    for index in bytes.indices {
      switch bytes[index] {
      case UInt8(ascii: " "), UInt8(ascii: "\""), UInt8(ascii: "\\"): return true
      case UInt8(ascii: "="): if !isValue { return true }
      // The rest of printable ASCII is never escaped, and needs no closer look.
      case 0x21..<0x7F: continue
      default: if escapedLength(at: index, in: bytes) != nil { return true }
      }
    }
    return false
  }

  /// Whether the eight bytes of `word` are printable ASCII that a word may hold bare.
  @inline(__always) static func isPlain(_ word: UInt64, isValue: Bool) -> Bool {
    EightBytes.isASCII(word) && !EightBytes.hasByteBelow(word, 0x21) && !EightBytes.hasByte(word, 0x7F)
      && !EightBytes.hasByte(word, UInt8(ascii: "\"")) && !EightBytes.hasByte(word, UInt8(ascii: "\\"))
      && (isValue || !EightBytes.hasByte(word, UInt8(ascii: "=")))
  }

  /// The length in bytes of the character at `index` when it must be escaped, else nil.
  /// Works on UTF-8 without decoding it, since most text written is ASCII.
  static func escapedLength(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    let byte = bytes[index]
    if byte < 0x20 || byte == 0x7F { return 1 }
    guard byte >= 0xC2, index + 1 < bytes.count else { return nil }
    let second = bytes[index + 1]
    switch byte {
    case 0xC2: return (0x80...0x9F).contains(second) ? 2 : nil
    case 0xD8: return second == 0x9C ? 2 : nil
    case 0xE2:
      guard index + 2 < bytes.count else { return nil }
      let third = bytes[index + 2]
      switch second {
      case 0x80: return third == 0x8E || third == 0x8F || (0xA8...0xAE).contains(third) ? 3 : nil
      case 0x81: return (0xA6...0xA9).contains(third) ? 3 : nil
      default: return nil
      }
    default: return nil
    }
  }

  /// Controls, U+2028/U+2029 and the bidi controls, which a written line never holds raw.
  public static func mustEscape(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0..<0x20, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069: true
    default: false
    }
  }

  public static func append(_ text: String, isValue: Bool = false, to out: inout String) {
    guard needsQuotes(text, isValue: isValue) else {
      out += text
      return
    }
    out += "\""
    for scalar in text.unicodeScalars {
      if let escape = CommonEscape.of(scalar) {
        out += escape
      } else if mustEscape(scalar) {
        out += "\\u{" + String(scalar.value, radix: 16) + "}"
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    out += "\""
  }
}

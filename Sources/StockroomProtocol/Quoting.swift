/// Writes words so that `Tokenizer` reads them back unchanged.
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
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x7F: return true
      case UInt8(ascii: "="): if !isValue { return true }
      case ..<0x20: return true
      default: continue
      }
    }
    return false
  }

  public static func append(_ text: String, isValue: Bool = false, to out: inout String) {
    guard needsQuotes(text, isValue: isValue) else {
      out += text
      return
    }
    out += "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F {
          out += "\\u{" + String(scalar.value, radix: 16) + "}"
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    out += "\""
  }
}

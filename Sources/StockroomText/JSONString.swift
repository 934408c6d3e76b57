/// A string as a JSON string literal: RFC 8259's escapes, every other control character as
/// `\u00XX`, and everything else as itself (JSON is UTF-8 here). The log's JSON form and the
/// client's `:json` write strings this way.
public enum JSONString {
  public static func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      if let escape = CommonEscape.of(scalar) {
        out += escape
      } else if scalar.value < 0x20 || scalar.value == 0x7F {
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}

/// The escapes JSON and the wire's quoting share: a quote, a backslash, and the three control
/// characters people type. Each format escapes other hidden characters in its own way.
public enum CommonEscape {
  public static func of(_ scalar: Unicode.Scalar) -> String? {
    switch scalar {
    case "\"": "\\\""
    case "\\": "\\\\"
    case "\n": "\\n"
    case "\r": "\\r"
    case "\t": "\\t"
    default: nil
    }
  }
}

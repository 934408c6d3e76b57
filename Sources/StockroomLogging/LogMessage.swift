/// Splits a log message written as today's text lines are, `connect id=3 peer=1.2.3.4:5
/// reason="client closed"`, into its words (`connect`) and its trailing `key=value` fields, for
/// the JSON form. A message whose tail is not all fields stays whole, with no fields: a field
/// guessed out of a sentence would be worse than none.
package enum LogMessage {
  package static func split(_ message: String) -> (text: String, fields: [(key: String, value: String)]) {
    let scalars = Array(message.unicodeScalars)
    var index = 0
    var fields: [(key: String, value: String)] = []
    var textEnd: Int?
    while index < scalars.count {
      while index < scalars.count && scalars[index] == " " { index += 1 }
      guard index < scalars.count else { break }
      let start = index
      if let (field, next) = self.field(scalars, at: index) {
        if textEnd == nil { textEnd = start }
        fields.append(field)
        index = next
        continue
      }
      guard textEnd == nil else { return (message, []) }
      while index < scalars.count && scalars[index] != " " { index += 1 }
    }
    guard let textEnd else { return (message, []) }
    var text = String(String.UnicodeScalarView(scalars[..<textEnd]))
    while text.hasSuffix(" ") { text.removeLast() }
    return (text, fields)
  }

  /// `key=value` or `key="quoted value"` at `start`, ending at a space or the end.
  private static func field(
    _ scalars: [Unicode.Scalar], at start: Int
  ) -> (field: (key: String, value: String), next: Int)? {
    var index = start
    guard index < scalars.count, ("a"..."z").contains(scalars[index]) else { return nil }
    while index < scalars.count,
      ("a"..."z").contains(scalars[index]) || ("0"..."9").contains(scalars[index]) || scalars[index] == "_"
    {
      index += 1
    }
    guard index < scalars.count, scalars[index] == "=" else { return nil }
    let key = String(String.UnicodeScalarView(scalars[start..<index]))
    index += 1
    var value = String.UnicodeScalarView()
    if index < scalars.count, scalars[index] == "\"" {
      index += 1
      while index < scalars.count, scalars[index] != "\"" {
        if scalars[index] == "\\", index + 1 < scalars.count { index += 1 }
        value.append(scalars[index])
        index += 1
      }
      guard index < scalars.count else { return nil }
      index += 1
      guard index == scalars.count || scalars[index] == " " else { return nil }
    } else {
      while index < scalars.count, scalars[index] != " " {
        value.append(scalars[index])
        index += 1
      }
    }
    return ((key, String(value)), index)
  }
}

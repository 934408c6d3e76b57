import StockroomProtocol
import StockroomText

/// Replies and events as JSON objects, so `jq` can read a session.
///
/// A reply is `{"status":"OK","code":null,"message":"...","fields":{...},"rows":[{...}]}`;
/// row objects hold `id` and every `key=value` field, whole numbers as JSON numbers. The
/// status line's words stay in `message` as the text they are (`1 item`); only its
/// `key=value` words are also `fields`, since splitting prose into words tells a tool nothing.
public enum JSONReply {
  /// One line per reply, for pipes; `pretty` lays it out for a person at a terminal, one key
  /// a line and one row a line, so a long list stays as many lines as it has rows.
  public static func encode(_ reply: Reply, pretty: Bool = false) -> String {
    var parts: [(String, String)] = []
    parts.append(("status", reply.isOK ? "\"OK\"" : "\"ERR\""))
    if let code = reply.errorCode {
      parts.append(("code", string(code.rawValue)))
    } else {
      parts.append(("code", reply.isOK ? "null" : string(Self.unknownCode(reply))))
    }
    parts.append(("message", string(reply.message)))
    var fields = reply.isOK ? reply.statusFields : Row()
    fields.id = nil
    fields.fields.removeAll { $0.key.isEmpty }
    parts.append(("fields", object(fields, pretty: pretty)))
    let rows = reply.rows.map { object($0, pretty: pretty) }
    guard pretty else {
      parts.append(("rows", "[" + rows.joined(separator: ",") + "]"))
      return "{" + parts.map { string($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }
    parts.append(("rows", rows.isEmpty ? "[]" : "[\n    " + rows.joined(separator: ",\n    ") + "\n  ]"))
    return "{\n" + parts.map { "  " + string($0.0) + ": " + $0.1 }.joined(separator: ",\n") + "\n}"
  }

  /// `{"event":"stock","item":"banana","level":8,...}`.
  public static func encode(event row: Row) -> String {
    var fields = row
    fields.id = nil
    var out = object(fields)
    out.removeFirst()
    let head = "{\"event\":" + string(row.id ?? "")
    return head + (out == "}" ? out : "," + out)
  }

  // An ERR line whose code this client does not know still names it.
  private static func unknownCode(_ reply: Reply) -> String {
    reply.lines.last.map { line in
      String(line.dropFirst(4).prefix { $0 != " " })
    } ?? ""
  }

  static func object(_ row: Row, pretty: Bool = false) -> String {
    var parts: [String] = []
    var seen: Set<String> = []
    var positionals: [String] = []
    if let id = row.id {
      parts.append("\"id\":" + (pretty ? " " : "") + string(id))
      seen.insert("id")
    }
    for field in row.fields {
      if field.key.isEmpty {
        positionals.append(string(field.value))
        continue
      }
      guard seen.insert(field.key).inserted else { continue }
      parts.append(string(field.key) + (pretty ? ": " : ":") + value(field.value))
    }
    if !positionals.isEmpty && !seen.contains("args") {
      parts.append("\"args\":" + (pretty ? " [" : "[") + positionals.joined(separator: pretty ? ", " : ",") + "]")
    }
    return "{" + parts.joined(separator: pretty ? ", " : ",") + "}"
  }

  /// Whole numbers that survive a round trip through a JSON number become numbers; `+3`,
  /// `007` and long digit runs stay strings so nothing the server said changes.
  static func value(_ text: String) -> String {
    let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
    let isNumber =
      !digits.isEmpty && digits.count <= 15 && digits.allSatisfy { $0.isASCII && $0.isNumber }
      && (digits == "0" || digits.first != "0") && text != "-0"
    return isNumber ? text : string(text)
  }

  /// A JSON string literal, as the log's JSON form writes one, and with C1 controls, line
  /// separators and bidi controls as `\u0085` too: JSON allows them raw, but pretty JSON is
  /// read on terminals, which would obey them. The string's value is the same either way.
  public static func string(_ text: String) -> String {
    let quoted = JSONString.quoted(text)
    guard quoted.unicodeScalars.contains(where: Quoting.mustEscape) else { return quoted }
    var out = ""
    for scalar in quoted.unicodeScalars {
      if Quoting.mustEscape(scalar) {
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}

import StockroomProtocol

/// Replies and events as one-line JSON objects, so `jq` can read a session.
///
/// A reply is `{"status":"OK","code":null,"message":"...","fields":{...},"rows":[{...}]}`;
/// row objects hold `id` and every `key=value` field, whole numbers as JSON numbers.
public enum JSONReply {
  public static func encode(_ reply: Reply) -> String {
    var out = "{\"status\":"
    out += reply.isOK ? "\"OK\"" : "\"ERR\""
    out += ",\"code\":"
    if let code = reply.errorCode {
      out += string(code.rawValue)
    } else if reply.isOK {
      out += "null"
    } else {
      out += string(Self.unknownCode(reply))
    }
    out += ",\"message\":" + string(reply.message)
    var fields = reply.isOK ? reply.statusFields : Row()
    fields.id = nil
    out += ",\"fields\":" + object(fields)
    out += ",\"rows\":["
    out += reply.rows.map(object).joined(separator: ",")
    out += "]}"
    return out
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

  static func object(_ row: Row) -> String {
    var parts: [String] = []
    var seen: Set<String> = []
    var positionals: [String] = []
    if let id = row.id {
      parts.append("\"id\":" + string(id))
      seen.insert("id")
    }
    for field in row.fields {
      if field.key.isEmpty {
        positionals.append(string(field.value))
        continue
      }
      guard seen.insert(field.key).inserted else { continue }
      parts.append(string(field.key) + ":" + value(field.value))
    }
    if !positionals.isEmpty && !seen.contains("args") {
      parts.append("\"args\":[" + positionals.joined(separator: ",") + "]")
    }
    return "{" + parts.joined(separator: ",") + "}"
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

  public static func string(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F {
          let hex = String(scalar.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }
}

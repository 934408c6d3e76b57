import StockroomDomain
import StockroomProtocol
import StockroomText
import StockroomTransport

/// An `ORDER` reply as the phone page's JSON: the receipt (the lines as ordered, what they took
/// and what is left, the total), the shortage item by item, or the refusal's code and message,
/// with the HTTP status that says which. Names are the shop's display names.
enum PhoneOrderAnswer {
  static func reply(_ bytes: [UInt8], names: (String) -> String) -> PhoneOrderReply {
    var reader = ReplyReader()
    var reply: Reply?
    for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
      if case .reply(let whole)? = reader.feed(line) { reply = whole }
    }
    guard let reply else { return .refusal(.internalServerError, code: "INTERNAL", "the shop gave no answer") }
    guard reply.isOK else { return refusal(reply, names: names) }
    let lines = reply.rows.filter { $0["kind"] != "taken" }.map { row in
      var fields = [("item", q(row.id ?? "")), ("name", q(names(row.id ?? ""))), ("quantity", n(row["quantity"]))]
      if let subtotal = row["subtotal"], let currency = row["currency"].flatMap(Currency.init(rawValue:)),
        let money = try? Money.parse(subtotal, currency: currency)
      {
        fields.append(("subtotal", q(money.display)))
      }
      return object(fields)
    }
    let took = reply.rows.filter { $0["kind"] == "taken" }.map { row in
      object([
        ("item", q(row.id ?? "")), ("name", q(names(row.id ?? ""))), ("count", n(row["quantity"])),
        ("left", n(row["stock"])),
      ])
    }
    var fields = [
      ("ok", "true"), ("order", n(reply.statusFields["order"])), ("lines", "[" + lines.joined(separator: ",") + "]"),
      ("took", "[" + took.joined(separator: ",") + "]"),
    ]
    if let total = reply.statusFields["total_text"] { fields.append(("total", q(total))) }
    return PhoneOrderReply(status: .ok, json: object(fields))
  }

  private static func refusal(_ reply: Reply, names: (String) -> String) -> PhoneOrderReply {
    let code = reply.errorCode ?? .internal
    let status: HTTPStatusCode =
      switch code {
      case .shortage: .conflict
      case .limit: .tooManyRequests
      case .readOnly, .unavailable: .serviceUnavailable
      case .internal: .internalServerError
      default: .badRequest
      }
    let short = reply.rows.filter { $0["kind"] == "shortage" }.map { row in
      object([
        ("item", q(row.id ?? "")), ("name", q(names(row.id ?? ""))), ("needed", n(row["needed"])),
        ("available", n(row["available"])), ("missing", n(row["missing"])),
      ])
    }
    return PhoneOrderReply(
      status: status,
      json: object([
        ("ok", "false"), ("code", q(code.rawValue)), ("message", q(reply.message)),
        ("short", "[" + short.joined(separator: ",") + "]"),
      ]))
  }

  /// A count from the reply, as a JSON number (0 if it were ever not one).
  private static func n(_ text: String?) -> String { String(text.flatMap { Int($0) } ?? 0) }

  private static func q(_ text: String) -> String { JSONString.quoted(text) }

  private static func object(_ fields: [(String, String)]) -> String {
    "{" + fields.map { "\(q($0.0)):\($0.1)" }.joined(separator: ",") + "}"
  }
}

import StockroomText

/// The answer to a phone's order: a receipt, a shortage item by item, or a refusal, as JSON the
/// page draws, with the HTTP status that says which.
package struct PhoneOrderReply: Sendable, Equatable {
  package var status: HTTPStatusCode
  package var json: String

  package init(status: HTTPStatusCode, json: String) {
    self.status = status
    self.json = json
  }

  /// A refusal made by the HTTP server itself (a bad token, a cross-site request, a bad body).
  package static func refusal(_ status: HTTPStatusCode, code: String, _ message: String) -> PhoneOrderReply {
    PhoneOrderReply(
      status: status,
      json: "{\"ok\":false,\"code\":\(JSONString.quoted(code)),\"message\":\(JSONString.quoted(message))}")
  }
}

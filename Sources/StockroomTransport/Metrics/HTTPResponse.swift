import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A whole HTTP/1.1 response, head and body, ready to send; the connection closes after it.
package struct HTTPResponse {
  package var status: HTTPStatus
  package var contentType = "text/plain; charset=utf-8"
  package var body: [UInt8]
  /// HEAD: the head a GET would get, with its Content-Length, and no body.
  package var omitsBody = false

  package init(_ status: HTTPStatus, body: String, contentType: String = "text/plain; charset=utf-8") {
    self.status = status
    self.body = Array(body.utf8)
    self.contentType = contentType
  }

  /// An error's short text, which never repeats what the client sent.
  package static func refusal(_ status: HTTPStatus) -> HTTPResponse {
    let hint =
      switch status {
      case .notFound: "; the metrics are at /metrics"
      case .methodNotAllowed: "; use GET or HEAD"
      default: ""
      }
    return HTTPResponse(status, body: "\(status.rawValue) \(status.reason)\(hint)\n")
  }

  package var bytes: [UInt8] {
    var head = "HTTP/1.1 \(status.rawValue) \(status.reason)\r\n"
    head += "Date: \(Self.imfDate())\r\n"
    head += "Content-Type: \(contentType)\r\n"
    head += "Content-Length: \(body.count)\r\n"
    if status == .methodNotAllowed { head += "Allow: GET, HEAD\r\n" }
    head += "Cache-Control: no-store\r\nConnection: close\r\n\r\n"
    return Array(head.utf8) + (omitsBody ? [] : body)
  }

  /// Now as RFC 9110's IMF-fixdate, `Tue, 01 Dec 2026 08:00:00 GMT`, independent of the locale.
  private static func imfDate() -> String {
    var now = time(nil)
    var parts = tm()
    gmtime_r(&now, &parts)
    let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
      + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
  }
}

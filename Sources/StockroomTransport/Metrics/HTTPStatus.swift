/// The statuses the metrics responder answers with.
package enum HTTPStatus: Int, Equatable {
  case ok = 200
  case badRequest = 400
  case notFound = 404
  case methodNotAllowed = 405
  case requestTimeout = 408
  case contentTooLarge = 413
  case headerTooLarge = 431
  case serviceUnavailable = 503
  case versionNotSupported = 505

  package var reason: String {
    switch self {
    case .ok: "OK"
    case .badRequest: "Bad Request"
    case .notFound: "Not Found"
    case .methodNotAllowed: "Method Not Allowed"
    case .requestTimeout: "Request Timeout"
    case .contentTooLarge: "Content Too Large"
    case .headerTooLarge: "Request Header Fields Too Large"
    case .serviceUnavailable: "Service Unavailable"
    case .versionNotSupported: "HTTP Version Not Supported"
    }
  }
}

#if canImport(Glibc)
  import Glibc
#endif

/// An answer written straight to a connection's socket by the server's own table, not through
/// MHD: to a connection whose request head is not whole, to which MHD has written nothing and
/// never will (the connection is shut down right after).
enum HTTPCannedReply {
  /// The head took longer than `HTTPLimits.headSeconds`.
  case headTimeout
  /// Its source holds its share of places, or among the most while every place is held.
  case busy

  var bytes: [UInt8] {
    let (status, body, extra) =
      switch self {
      case .headTimeout: ("408 Request Timeout", "the request's head took too long\n", "")
      case .busy: ("503 Service Unavailable", "too many connections from your address\n", "Retry-After: 5\r\n")
      }
    let head =
      "HTTP/1.1 \(status)\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n"
      + "X-Content-Type-Options: nosniff\r\n\(extra)Content-Length: \(body.utf8.count)\r\n\r\n"
    return Array((head + body).utf8)
  }

  /// Writes the reply without blocking (a socket that cannot take a few hundred bytes now does
  /// not get them).
  func send(to fd: Int32) {
    let reply = bytes
    _ = reply.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
  }
}

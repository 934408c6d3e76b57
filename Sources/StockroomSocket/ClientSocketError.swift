import StockroomSystem
import StockroomTLS

/// Why a `ClientSocket` could not connect, or could not go on; each program words it its own
/// way (the REPL's `ClientError`, the bench's `BenchError`).
public enum ClientSocketError: Error, Sendable, CustomStringConvertible {
  /// The host name did not resolve.
  case unresolved(host: String, reason: String)
  /// No address of the host took the connection; the last address's reason.
  case unreachable(Errno)
  /// The TLS handshake failed, or did not finish in time.
  case handshake(TLSError)
  /// The server ended the connection.
  case closed
  /// A send or receive waited past the socket's timeout.
  case timedOut
  /// The socket or TLS failed.
  case failed(String)

  public var description: String {
    switch self {
    case .unresolved(let host, let reason): "cannot resolve \(host): \(reason)"
    case .unreachable(let error): "\(error)"
    case .handshake(let error): error.message
    case .closed: "closed by the server"
    case .timedOut: "timed out"
    case .failed(let reason): reason
    }
  }
}

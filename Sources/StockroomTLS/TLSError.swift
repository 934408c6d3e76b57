import COpenSSL

/// Why TLS could not be set up or a connection failed, in words a person can act on.
///
/// Built only from OpenSSL's reason strings, verification results and file names: never from
/// key material or the bytes of the connection.
public struct TLSError: Error, Sendable, Equatable, CustomStringConvertible {
  public enum Kind: Sendable, Equatable {
    /// A certificate, key or CA file could not be used.
    case setup
    /// The peer's certificate chain did not verify (untrusted, expired, self-signed, ...).
    case untrusted
    /// The certificate verified but names another host.
    case hostMismatch
    /// The handshake or a record failed: a protocol error, an unexpected message, not TLS.
    case protocolFailure
    /// The socket failed underneath.
    case io
    /// The peer closed before the handshake was done.
    case closedEarly
  }

  public var kind: Kind
  public var message: String

  public init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  public var description: String { message }

  /// The reasons on this thread's OpenSSL error queue, oldest first, and the queue emptied.
  static func drainQueue() -> String {
    var reasons: [String] = []
    while true {
      let code = ERR_get_error()
      if code == 0 { break }
      if let reason = ERR_reason_error_string(code) {
        let text = String(cString: reason)
        if !reasons.contains(text) { reasons.append(text) }
      } else {
        reasons.append("error \(sr_err_reason(code))")
      }
    }
    return reasons.joined(separator: "; ")
  }

  /// `what` failed, with OpenSSL's reasons after it.
  static func fromQueue(_ kind: Kind, _ what: String) -> TLSError {
    let reasons = drainQueue()
    return TLSError(kind, reasons.isEmpty ? what : "\(what): \(reasons)")
  }
}

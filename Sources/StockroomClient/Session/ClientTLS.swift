import StockroomTLS

/// `--tls` or a `stockrooms://` URL: the connection runs inside TLS, and how the server's
/// certificate is checked.
public struct ClientTLS: Sendable, Equatable {
  /// `--cacert`: the CAs to trust instead of the system's.
  public var caFile: String? = nil
  /// Off only with `--insecure`: then any certificate, for any name, is taken.
  public var verify = true
  /// `--cert` and `--key`: presented to a server that asks for a client certificate.
  public var certificate: String? = nil
  public var key: String? = nil

  public init() {}

  /// The context connections are made from; a file that cannot be used is said plainly.
  func context() throws(ClientError) -> TLSContext {
    do {
      return try TLSContext.client(caFile: caFile, verify: verify, certificate: certificate, key: key)
    } catch {
      throw ClientError(.unreachable, "TLS: \(error.message)")
    }
  }

  /// What went wrong connecting to `place`, with what to do about it.
  static func explain(_ error: TLSError, place: String, host: String) -> ClientError {
    let advice: String
    switch error.kind {
    case .untrusted:
      advice =
        "; if this is the right server, give the CA that signed its certificate with --cacert FILE "
        + "(or, only on a network you trust, skip the check with --insecure)"
    case .hostMismatch:
      advice =
        "; connect by a name or address the certificate lists (-h NAME), or ask the operator for a certificate "
        + "that names \(host)"
    case .protocolFailure, .closedEarly:
      advice = "; is \(place) a TLS port? Plain-text ports take stockroom without --tls"
    case .setup, .io:
      advice = ""
    }
    return ClientError(.unreachable, "cannot connect to \(place) over TLS: \(error.message)\(advice)")
  }
}

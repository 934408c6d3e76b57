import StockroomProtocol

/// The TLS port's settings: what `--tls-cert`, `--tls-key`, `--tls-port` and `--tls-ca` said.
public struct TLSSettings: Sendable, Equatable {
  /// PEM: the server's certificate, then any intermediates.
  public var certificate: String
  /// PEM, without a passphrase.
  public var key: String
  /// 0 asks the kernel for a free port, read back as `Server.tlsPort`.
  public var port: UInt16 = ProtocolVersion.defaultTLSPort
  /// With a CA file, every client must present a certificate it signed.
  public var clientCA: String? = nil
  /// A client must finish its handshake within this long of connecting, or it is closed: one
  /// that stops half-way must not hold a place for ever.
  public var handshakeTimeout: Duration = .seconds(10)

  public init(certificate: String, key: String) {
    self.certificate = certificate
    self.key = key
  }
}

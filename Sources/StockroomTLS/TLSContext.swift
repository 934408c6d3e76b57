import COpenSSL

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// What every connection of one side shares: TLS 1.2 or 1.3 with OpenSSL's secure defaults (a
/// server's TLS 1.2 limited to forward-secret AEAD suites), the certificate and key presented, and
/// what the peer's certificate is checked against.
///
/// OpenSSL lets threads make connections from one `SSL_CTX` once it is set up, and this one is
/// never changed after it is made: that is what makes the unchecked `Sendable` sound.
public final class TLSContext: @unchecked Sendable {
  let context: OpaquePointer
  let isServer: Bool
  /// How connections reach their sockets: see `sr_bio_method_socket_without_sigpipe`.
  let socketMethod: OpaquePointer
  /// Whether a connection's peer must present a certificate that verifies.
  public let verifiesPeer: Bool

  private init(method: OpaquePointer?, isServer: Bool, verifiesPeer: Bool, blocking: Bool) throws(TLSError) {
    guard let method, let context = SSL_CTX_new(method) else {
      throw TLSError.fromQueue(.setup, "cannot set up TLS")
    }
    guard let socketMethod = sr_bio_method_socket_without_sigpipe() else {
      SSL_CTX_free(context)
      throw TLSError.fromQueue(.setup, "cannot set up TLS sockets")
    }
    self.context = context
    self.socketMethod = socketMethod
    self.isServer = isServer
    self.verifiesPeer = verifiesPeer
    guard sr_ssl_ctx_set_min_tls12(context) == 1 else { throw TLSError.fromQueue(.setup, "cannot require TLS 1.2") }
    sr_ssl_ctx_set_modes(context, blocking ? 1 : 0)
    // An encrypted key would make OpenSSL ask for its passphrase on the terminal, from inside
    // a server; refuse it instead (the message then says the key could not be read).
    SSL_CTX_set_default_passwd_cb(context) { _, _, _, _ in 0 }
  }

  deinit {
    SSL_CTX_free(context)
    // Every channel holds its context, so no BIO of this method outlives it.
    BIO_meth_free(socketMethod)
  }

  /// A server's side: `certificate` (PEM, the chain after the leaf) and its `key`; with
  /// `clientCA`, every client must present a certificate that CA signed.
  public static func server(certificate: String, key: String, clientCA: String? = nil) throws(TLSError) -> TLSContext {
    TLSLibrary.prepare()
    let tls = try TLSContext(
      method: TLS_server_method(), isServer: true, verifiesPeer: clientCA != nil, blocking: false)
    let context = tls.context
    sr_ssl_ctx_set_server_options(context)
    guard sr_ssl_ctx_set_sessions(context) == 1 else { throw TLSError.fromQueue(.setup, "cannot set up TLS sessions") }
    guard sr_ssl_ctx_set_tls12_ciphers(context) == 1 else {
      throw TLSError.fromQueue(.setup, "cannot choose the TLS 1.2 cipher suites")
    }
    // Whole records are read in one system call where the kernel has them.
    sr_ssl_ctx_set_read_ahead(context, 1)
    try readable(certificate, what: "certificate")
    try readable(key, what: "key")
    guard SSL_CTX_use_certificate_chain_file(context, certificate) == 1 else {
      throw TLSError.fromQueue(.setup, "cannot use the certificate in \(certificate)")
    }
    guard SSL_CTX_use_PrivateKey_file(context, key, SSL_FILETYPE_PEM) == 1 else {
      throw TLSError.fromQueue(.setup, "cannot use the private key in \(key) (PEM, without a passphrase)")
    }
    guard SSL_CTX_check_private_key(context) == 1 else {
      _ = TLSError.drainQueue()
      throw TLSError(.setup, "the private key in \(key) does not belong to the certificate in \(certificate)")
    }
    if let clientCA {
      try readable(clientCA, what: "CA")
      guard SSL_CTX_load_verify_locations(context, clientCA, nil) == 1, let names = SSL_load_client_CA_file(clientCA)
      else {
        throw TLSError.fromQueue(.setup, "cannot use the CA certificates in \(clientCA)")
      }
      SSL_CTX_set_client_CA_list(context, names)
      SSL_CTX_set_verify(context, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nil)
    }
    return tls
  }

  /// A client's side. With `verify`, the server's certificate must chain to `caFile` (else to
  /// the system's CAs) and name the host dialled; `certificate` and `key` are presented to a
  /// server that asks for them. Connections made from it block: see `sr_ssl_ctx_set_modes`.
  public static func client(
    caFile: String? = nil, verify: Bool = true, certificate: String? = nil, key: String? = nil
  ) throws(TLSError) -> TLSContext {
    TLSLibrary.prepare()
    let tls = try TLSContext(method: TLS_client_method(), isServer: false, verifiesPeer: verify, blocking: true)
    let context = tls.context
    if verify {
      if let caFile {
        try readable(caFile, what: "CA")
        guard SSL_CTX_load_verify_locations(context, caFile, nil) == 1 else {
          throw TLSError.fromQueue(.setup, "cannot use the CA certificates in \(caFile)")
        }
      } else if SSL_CTX_set_default_verify_paths(context) != 1 {
        throw TLSError.fromQueue(.setup, "cannot read the system's CA certificates")
      }
      SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
    } else {
      SSL_CTX_set_verify(context, SSL_VERIFY_NONE, nil)
    }
    if let certificate {
      try readable(certificate, what: "certificate")
      guard SSL_CTX_use_certificate_chain_file(context, certificate) == 1 else {
        throw TLSError.fromQueue(.setup, "cannot use the certificate in \(certificate)")
      }
      let key = key ?? certificate
      try readable(key, what: "key")
      guard SSL_CTX_use_PrivateKey_file(context, key, SSL_FILETYPE_PEM) == 1,
        SSL_CTX_check_private_key(context) == 1
      else {
        _ = TLSError.drainQueue()
        throw TLSError(.setup, "the private key in \(key) cannot be read or does not belong to \(certificate)")
      }
    }
    return tls
  }

  /// Says which file is missing or unreadable in the system's words, before OpenSSL's
  /// less direct "system lib" reasons can.
  private static func readable(_ path: String, what: String) throws(TLSError) {
    guard access(path, R_OK) == 0 else {
      throw TLSError(.setup, "cannot read the \(what) file \(path): \(String(cString: strerror(errno)))")
    }
  }
}

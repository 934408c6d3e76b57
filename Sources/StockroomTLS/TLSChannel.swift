import COpenSSL

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// TLS over one connected socket: the layer between the socket and what the connection
/// carries, with the calls shaped like `read` and `write`.
///
/// It owns no loop and no thread. On a non-blocking socket each call does what it can and says
/// which way the socket must become ready before it can go on (`TLSWant`), which the caller
/// turns into epoll interest, a Dispatch source or a poll; on a blocking socket the calls
/// block. OpenSSL's record buffers are its own (about 17 KiB each way, fixed in size), so a
/// connection holds a bounded amount whatever its peer sends.
///
/// One thread at a time: OpenSSL's error queue, read before and after each call, is per thread.
public final class TLSChannel {
  private let ssl: OpaquePointer
  /// Held because the connection's socket BIO uses the context's BIO method, which a context
  /// replaced by a reload must not free while this connection lives.
  private let context: TLSContext
  private let isServer: Bool
  /// The name the client checks the server's certificate against, for its error messages.
  private let expectedHost: String?
  /// The last read found no whole record and the socket empty: until the socket is readable
  /// again, whatever OpenSSL holds is a fragment, not something to read.
  private var inputStalled = false

  /// A connection on `fd`, which stays the caller's to close. A client gives `host`, the name
  /// or address it dialled: the certificate must be for it, and a name is sent as SNI.
  public init(context: TLSContext, fd: Int32, host: String? = nil) throws(TLSError) {
    ERR_clear_error()
    guard let ssl = SSL_new(context.context) else { throw TLSError.fromQueue(.setup, "cannot start TLS") }
    self.ssl = ssl
    self.context = context
    self.isServer = context.isServer
    self.expectedHost = host
    guard let bio = sr_bio_new_socket(context.socketMethod, fd) else {
      throw TLSError.fromQueue(.setup, "cannot start TLS on the socket")
    }
    // From here the connection owns the BIO, and SSL_free frees it.
    SSL_set_bio(ssl, bio, bio)
    if context.isServer {
      SSL_set_accept_state(ssl)
      return
    }
    SSL_set_connect_state(ssl)
    guard let host else { return }
    var address = in6_addr()
    let numeric = inet_pton(AF_INET, host, &address) == 1 || inet_pton(AF_INET6, host, &address) == 1
    if numeric {
      // An address is matched against the certificate's IP entries, and is never sent as SNI.
      guard X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host) == 1 else {
        throw TLSError.fromQueue(.setup, "cannot check the certificate against \(host)")
      }
    } else {
      guard SSL_set1_host(ssl, host) == 1, sr_ssl_set_sni(ssl, host) == 1 else {
        throw TLSError.fromQueue(.setup, "cannot check the certificate against \(host)")
      }
    }
  }

  deinit { SSL_free(ssl) }

  /// Takes the handshake as far as the socket allows.
  public func handshake() -> TLSStep {
    ERR_clear_error()
    let result = SSL_do_handshake(ssl)
    if result == 1 { return .done }
    switch outcome(result) {
    case .wants(let want): return .wants(want)
    case .closed: return .failed(handshakeFailure(TLSError(.closedEarly, "the peer closed during the TLS handshake")))
    case .failed(let error): return .failed(handshakeFailure(error))
    case .bytes: return .done
    }
  }

  /// Reads decrypted bytes into `buffer`.
  public func read(into buffer: UnsafeMutableRawBufferPointer) -> TLSTransfer {
    guard let base = buffer.baseAddress, buffer.count > 0 else { return .bytes(0) }
    ERR_clear_error()
    let result = SSL_read(ssl, base, Int32(clamping: buffer.count))
    if result > 0 {
      inputStalled = false
      return .bytes(Int(result))
    }
    let transfer = outcome(result)
    if transfer == .wants(.read) { inputStalled = true }
    return transfer
  }

  /// Encrypts and sends from `bytes`; after `.wants`, call again with the same bytes at the
  /// front (more may follow them, and they may have moved).
  public func write(_ bytes: UnsafeRawBufferPointer) -> TLSTransfer {
    guard let base = bytes.baseAddress, bytes.count > 0 else { return .bytes(0) }
    ERR_clear_error()
    let result = SSL_write(ssl, base, Int32(clamping: min(bytes.count, 1 << 20)))
    if result > 0 { return .bytes(Int(result)) }
    return outcome(result)
  }

  /// Sends close_notify: the end of what this side sends. Does not wait for the peer's.
  public func shutdown() -> TLSStep {
    ERR_clear_error()
    let result = SSL_shutdown(ssl)
    if result >= 0 { return .done }
    switch outcome(result) {
    case .wants(let want): return .wants(want)
    case .failed(let error): return .failed(error)
    case .closed, .bytes: return .done
    }
  }

  /// Gives OpenSSL's record buffers (about 17 KiB each way) back to the allocator when they hold
  /// nothing; OpenSSL makes them again at the next read or write. False when they were in use
  /// (records in them). For a connection gone quiet: doing it after every read and write
  /// (`SSL_MODE_RELEASE_BUFFERS`) costs a free and two allocations a request.
  public func releaseBuffers() -> Bool {
    SSL_free_buffers(ssl) == 1
  }

  /// Decrypted or undecrypted bytes OpenSSL holds that a read could take without the socket
  /// becoming readable: the caller must read again rather than wait for epoll.
  public var hasBufferedInput: Bool {
    !inputStalled && (SSL_pending(ssl) > 0 || SSL_has_pending(ssl) == 1)
  }

  /// `TLSv1.3 TLS_AES_256_GCM_SHA384`, for the log.
  public var negotiated: String {
    let version = String(cString: SSL_get_version(ssl))
    let cipher = SSL_get_current_cipher(ssl).flatMap { SSL_CIPHER_get_name($0) }.map { String(cString: $0) } ?? "none"
    return "\(version) \(cipher)"
  }

  /// The subject of the certificate the peer presented, as `/CN=alice`, if it presented one.
  public var peerSubject: String? {
    guard let certificate = SSL_get1_peer_certificate(ssl) else { return nil }
    defer { X509_free(certificate) }
    var buffer = [CChar](repeating: 0, count: 256)
    guard X509_NAME_oneline(X509_get_subject_name(certificate), &buffer, Int32(buffer.count)) != nil else {
      return nil
    }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  // MARK: Errors

  /// What a call that returned `result` (0 or less) means.
  private func outcome(_ result: Int32) -> TLSTransfer {
    let failure = errno
    let code = SSL_get_error(ssl, result)
    switch code {
    case SSL_ERROR_WANT_READ: return .wants(.read)
    case SSL_ERROR_WANT_WRITE: return .wants(.write)
    case SSL_ERROR_ZERO_RETURN: return .closed(clean: true)
    case SSL_ERROR_SYSCALL:
      let reasons = TLSError.drainQueue()
      if failure == 0 && reasons.isEmpty { return .closed(clean: false) }
      if failure == EAGAIN || failure == EWOULDBLOCK {
        return .failed(TLSError(.io, "timed out"))
      }
      return .failed(TLSError(.io, String(cString: strerror(failure))))
    default:
      let first = ERR_peek_error()
      if sr_err_reason(first) == sr_reason_unexpected_eof() {
        _ = TLSError.drainQueue()
        return .closed(clean: false)
      }
      return .failed(TLSError.fromQueue(.protocolFailure, "protocol error"))
    }
  }

  /// A failed handshake, said as what the peer's certificate lacked when that was the cause.
  private func handshakeFailure(_ error: TLSError) -> TLSError {
    let verdict = SSL_get_verify_result(ssl)
    guard verdict != X509_V_OK else { return error }
    let reason = String(cString: X509_verify_cert_error_string(verdict))
    let peer = isServer ? "client's" : "server's"
    if verdict == X509_V_ERR_HOSTNAME_MISMATCH || verdict == X509_V_ERR_IP_ADDRESS_MISMATCH {
      return TLSError(.hostMismatch, "the \(peer) certificate is not for \(expectedHost ?? "this host") (\(reason))")
    }
    return TLSError(.untrusted, "the \(peer) certificate is not trusted (\(reason))")
  }
}

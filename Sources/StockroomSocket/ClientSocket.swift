import StockroomSystem
import StockroomTLS

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One blocking TCP connection to a server, in clear or inside TLS: what the REPL client and the
/// bench both speak through. Framing the bytes is theirs; this moves them.
///
/// Blocking on purpose: each owner has one thread per connection, and every wait either is
/// for the server or goes through poll(2) or epoll on `descriptor`.
public final class ClientSocket {
  public let host: String
  public let port: UInt16
  /// The socket itself, for a caller that waits on it with poll or epoll; -1 once closed.
  public var descriptor: Int32 { file.rawValue }
  public var isOpen: Bool { descriptor >= 0 }
  private let file: FileDescriptor
  /// The TLS layer over the socket, for a TLS connection.
  private let tls: TLSChannel?

  private init(host: String, port: UInt16, file: FileDescriptor, tls: TLSChannel?) {
    self.host = host
    self.port = port
    self.file = file
    self.tls = tls
  }

  /// Connects to the first of `host`'s addresses that answers, then (with `tls`) does the
  /// handshake, the certificate checked. With a limit, the connect and the handshake each give
  /// up after that many milliseconds: a client retrying inside its editor's wait must not
  /// freeze the keyboard on a host that never answers; the receive limit stays set for the
  /// caller to clear once the server has greeted it. With `timeoutSeconds`, every later send and
  /// receive that waits longer fails with `.timedOut`, so a stalled server ends the connection
  /// rather than the run.
  public static func connect(
    host: String, port: UInt16, limitMilliseconds: Int32? = nil, timeoutSeconds: Int? = nil, tls: TLSContext? = nil
  ) throws(ClientSocketError) -> ClientSocket {
    let file = FileDescriptor(try connectSocket(host: host, port: port, limitMilliseconds: limitMilliseconds))
    let fd = file.rawValue
    if let limitMilliseconds { setReceiveLimit(fd, milliseconds: Int(limitMilliseconds)) }
    if let timeoutSeconds {
      setReceiveLimit(fd, milliseconds: timeoutSeconds * 1000)
      var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
      setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }
    // Over TLS a read that timed out looks like a record without data, which is read past: the
    // limit is kept by the clock instead.
    let deadline = limitMilliseconds.map { MonotonicClock.milliseconds() + Int($0) }
    var channel: TLSChannel?
    if let tls {
      // On a failure `file` goes out of scope, which closes the socket.
      do throws(TLSError) {
        channel = try handshake(tls, fd: fd, host: host, deadline: deadline)
      } catch {
        throw .handshake(error)
      }
    }
    return ClientSocket(host: host, port: port, file: file, tls: channel)
  }

  deinit { close() }

  /// Ends the connection; over TLS with close_notify first, so the server can tell a goodbye
  /// from a cut connection.
  public func close() {
    guard isOpen else { return }
    if let tls {
      let flags = fcntl(descriptor, F_GETFL)
      _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
      _ = tls.shutdown()
    }
    file.close()
  }

  /// Makes a receive that waits longer than `milliseconds` fail with `.timedOut` (over TLS, come
  /// back with nothing); 0 waits for ever again.
  public func setReceiveLimit(milliseconds: Int) {
    Self.setReceiveLimit(descriptor, milliseconds: milliseconds)
  }

  /// Writes all of `bytes`, or fails.
  public func sendAll(_ bytes: some Collection<UInt8>) throws(ClientSocketError) {
    let bytes = Array(bytes)
    var offset = 0
    while offset < bytes.count {
      offset += try send(bytes[offset...], blocking: true)
    }
  }

  /// Writes what the socket takes; without `blocking`, 0 when it takes nothing now. After a 0
  /// over TLS the next call must start with the same bytes, which OpenSSL needs to finish the
  /// record it began.
  public func send(_ bytes: ArraySlice<UInt8>, blocking: Bool) throws(ClientSocketError) -> Int {
    guard isOpen else { throw .closed }
    if let tls { return try send(bytes, blocking: blocking, over: tls) }
    // MSG_NOSIGNAL: a server that hangs up fails this connection rather than killing the process.
    let flags = Int32(MSG_NOSIGNAL) | (blocking ? 0 : Int32(MSG_DONTWAIT))
    let sent = bytes.withUnsafeBytes { raw in
      Result { () throws(Errno) in try Syscall.retrying { Glibc.send(descriptor, raw.baseAddress, raw.count, flags) } }
    }
    switch sent {
    case .success(let count): return count
    case .failure(let error) where error.isWouldBlock: if blocking { throw .timedOut } else { return 0 }
    case .failure(let error): throw .failed(error.description)
    }
  }

  /// TLS has no MSG_DONTWAIT: a send that must not block makes the socket non-blocking for
  /// its length.
  private func send(_ bytes: ArraySlice<UInt8>, blocking: Bool, over tls: TLSChannel) throws(ClientSocketError) -> Int {
    let flags = fcntl(descriptor, F_GETFL)
    if !blocking { _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) }
    defer { if !blocking { _ = fcntl(descriptor, F_SETFL, flags) } }
    while true {
      switch bytes.withUnsafeBytes({ tls.write($0) }) {
      case .bytes(let count): return count
      case .wants:
        if !blocking { return 0 }
        if Errno.current.isWouldBlock { throw .timedOut }
      case .closed: throw .closed
      case .failed(let error): throw .failed(error.message)
      }
    }
  }

  /// Reads what has arrived into `buffer`, waiting for it: the count, or 0 when TLS read only a
  /// record without data (a session ticket) and the caller should read again. Throws `.closed`
  /// when the server has ended the connection, `.timedOut` past the receive limit.
  public func receive(into buffer: UnsafeMutableRawBufferPointer) throws(ClientSocketError) -> Int {
    guard isOpen else { throw .closed }
    if let tls {
      switch tls.read(into: buffer) {
      case .bytes(let count): return count
      case .wants: if Errno.current.isWouldBlock { throw .timedOut } else { return 0 }
      case .closed: throw .closed
      case .failed(let error): throw .failed(error.message)
      }
    }
    switch Result(catching: { () throws(Errno) in try Syscall.read(descriptor, into: buffer) }) {
    case .success(0): throw .closed
    case .success(let count): return count
    case .failure(let error) where error.isWouldBlock: throw .timedOut
    case .failure(let error): throw .failed(error.description)
    }
  }

  /// Whether bytes wait inside TLS that the socket no longer shows: poll cannot see them, so
  /// the caller reads again before it waits.
  public var hasBufferedInput: Bool { tls?.hasBufferedInput ?? false }

  /// True when a receive would not block: data, or the end of the connection, is waiting.
  public func isReadable(timeoutMilliseconds: Int32 = 0) -> Bool {
    guard isOpen else { return false }
    if hasBufferedInput { return true }
    var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    return poll(&entry, 1, timeoutMilliseconds) > 0
  }

  // MARK: Connecting

  private static func handshake(
    _ context: TLSContext, fd: Int32, host: String, deadline: Int?
  ) throws(TLSError) -> TLSChannel {
    let channel = try TLSChannel(context: context, fd: fd, host: host)
    while true {
      switch channel.handshake() {
      case .done: return channel
      // The socket blocks: a want is an interruption, or the receive limit reached.
      case .wants:
        if let deadline, MonotonicClock.milliseconds() >= deadline {
          throw TLSError(.io, "no answer to the TLS handshake in time")
        }
      case .failed(let error): throw error
      }
    }
  }

  /// SO_RCVTIMEO: a read that waits longer fails with EAGAIN. 0 waits for ever again.
  private static func setReceiveLimit(_ fd: Int32, milliseconds: Int) {
    var limit = timeval(tv_sec: milliseconds / 1000, tv_usec: (milliseconds % 1000) * 1000)
    _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
  }

  private static func connectSocket(
    host: String, port: UInt16, limitMilliseconds: Int32?
  ) throws(ClientSocketError) -> Int32 {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    hints.ai_flags = AI_NUMERICSERV
    var list: UnsafeMutablePointer<addrinfo>? = nil
    let status = getaddrinfo(host, String(port), &hints, &list)
    guard status == 0, let first = list else {
      throw .unresolved(host: host, reason: String(cString: gai_strerror(status)))
    }
    defer { freeaddrinfo(list) }
    var lastError: Int32 = ECONNREFUSED
    var entry: UnsafeMutablePointer<addrinfo>? = first
    while let address = entry {
      entry = address.pointee.ai_next
      let fd = socket(
        address.pointee.ai_family, address.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue),
        address.pointee.ai_protocol)
      guard fd >= 0 else {
        lastError = errno
        continue
      }
      let failure = connect(fd, to: address, limitMilliseconds: limitMilliseconds)
      if failure == 0 {
        // Without NODELAY a small pipelined batch can wait on Nagle for the previous one's ACK.
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        return fd
      }
      lastError = failure
      Glibc.close(fd)
    }
    throw .unreachable(Errno(lastError))
  }

  /// connect(2), waiting at most the limit when there is one: non-blocking, then poll for
  /// writability and read the outcome from SO_ERROR. The socket is blocking again after.
  private static func connect(
    _ fd: Int32, to address: UnsafeMutablePointer<addrinfo>, limitMilliseconds: Int32?
  ) -> Int32 {
    guard let limitMilliseconds else {
      var result: Int32
      repeat {
        result = Glibc.connect(fd, address.pointee.ai_addr, address.pointee.ai_addrlen)
      } while result != 0 && errno == EINTR
      return result == 0 ? 0 : errno
    }
    let flags = fcntl(fd, F_GETFL)
    _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
    defer { _ = fcntl(fd, F_SETFL, flags) }
    if Glibc.connect(fd, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 { return 0 }
    guard errno == EINPROGRESS || errno == EINTR else { return errno }
    var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
    guard poll(&entry, 1, limitMilliseconds) == 1 else { return ETIMEDOUT }
    var failure: Int32 = 0
    var size = socklen_t(MemoryLayout<Int32>.size)
    guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &size) == 0 else { return errno }
    return failure
  }
}

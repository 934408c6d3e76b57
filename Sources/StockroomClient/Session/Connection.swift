import StockroomProtocol
import StockroomSystem
import StockroomTLS

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One TCP connection to a server, in clear or inside TLS: line framing in, whole lines out.
///
/// Blocking on purpose: the client has one thread, and every wait either is for the server
/// or goes through poll(2) with stdin, so nothing else could run meanwhile anyway.
public final class Connection {
  public let host: String
  public let port: UInt16
  public private(set) var fd: Int32
  /// The server's greeting, e.g. `OK stockroomd 0.1.0 protocol=1 ready; ...`.
  public private(set) var greeting = ""
  private var buffer: [UInt8] = []
  private var reader = ReplyReader()
  private var queued: [ReplyReader.Item] = []
  public private(set) var isOpen = true
  /// The TLS layer over `fd`, for a `--tls` connection.
  private let tls: TLSChannel?

  private init(host: String, port: UInt16, fd: Int32, tls: TLSChannel?) {
    self.host = host
    self.port = port
    self.fd = fd
    self.tls = tls
  }

  deinit { close() }

  /// Connects and reads the greeting; a full server's `ERR LIMIT` greeting is an error. With a
  /// limit, the connect and the greeting each give up after that many milliseconds: a retry
  /// runs inside the editor's wait, and a host that never answers must not freeze the keyboard.
  /// With `tls`, the handshake is done (and the certificate checked) before the greeting.
  public static func open(
    host: String, port: UInt16, limitMilliseconds: Int32? = nil, tls: ClientTLS? = nil
  ) throws(ClientError) -> Connection {
    let context = try tls?.context()
    let fd = try connectSocket(host: host, port: port, limitMilliseconds: limitMilliseconds)
    if let limitMilliseconds { setReceiveLimit(fd, milliseconds: limitMilliseconds) }
    // Over TLS a read that timed out looks like a record without data, which is read past: the
    // limit is kept by the clock instead.
    let deadline = limitMilliseconds.map { MonotonicClock.milliseconds() + Int($0) }
    let channel: TLSChannel?
    do {
      channel = try context.map { context throws(TLSError) in
        try handshake(context, fd: fd, host: host, deadline: deadline)
      }
    } catch {
      Glibc.close(fd)
      throw ClientTLS.explain(error, place: "\(host):\(port)", host: host)
    }
    let connection = Connection(host: host, port: port, fd: fd, tls: channel)
    var first: Reply? = nil
    while first == nil {
      let item: ReplyReader.Item
      do {
        item = try connection.nextItem(before: deadline)
      } catch {
        // Over TLS the reason matters: a server that wants a client certificate says so here.
        // A TLS port waits for a ClientHello a plain client never sends, and closes at its deadline.
        let reason = channel == nil ? "; if it is a TLS port, connect with --tls" : " (\(error.message))"
        throw ClientError(.unreachable, "\(host):\(port) closed the connection before greeting\(reason)")
      }
      if case .reply(let reply) = item { first = reply }
    }
    guard let greeting = first, greeting.isOK else {
      connection.close()
      throw ClientError(.refused, "\(host):\(port) refused: \(first?.lines.last ?? "")")
    }
    connection.greeting = greeting.lines.last ?? ""
    if limitMilliseconds != nil { setReceiveLimit(fd, milliseconds: 0) }
    return connection
  }

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

  /// SO_RCVTIMEO: a read that waits longer fails with EAGAIN, which readOnce reports as the
  /// connection lost. 0 waits forever again.
  private static func setReceiveLimit(_ fd: Int32, milliseconds: Int32) {
    var limit = timeval(tv_sec: Int(milliseconds / 1000), tv_usec: Int(milliseconds % 1000) * 1000)
    _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
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

  private static func connectSocket(
    host: String, port: UInt16, limitMilliseconds: Int32?
  ) throws(ClientError) -> Int32 {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    hints.ai_flags = AI_NUMERICSERV
    var list: UnsafeMutablePointer<addrinfo>? = nil
    let status = getaddrinfo(host, String(port), &hints, &list)
    guard status == 0, let first = list else {
      throw ClientError(.unreachable, "cannot resolve \(host): \(String(cString: gai_strerror(status)))")
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
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        return fd
      }
      lastError = failure
      Glibc.close(fd)
    }
    throw ClientError(.unreachable, "cannot connect to \(host):\(port): \(Errno(lastError))")
  }

  public func close() {
    guard isOpen else { return }
    isOpen = false
    // close_notify: the server can tell a goodbye from a cut connection.
    if let tls {
      let flags = fcntl(fd, F_GETFL)
      _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
      _ = tls.shutdown()
    }
    Glibc.close(fd)
    fd = -1
  }

  /// Writes the line and its LF, all of it, or fails.
  public func send(_ line: String) throws(ClientError) {
    let bytes = Array((line + "\n").utf8)
    var offset = 0
    while offset < bytes.count {
      let written = try sendSome(bytes[offset...], blocking: true)
      offset += written
    }
  }

  /// Writes what the socket takes now; 0 when it takes nothing without blocking.
  public func sendSome(_ bytes: ArraySlice<UInt8>, blocking: Bool) throws(ClientError) -> Int {
    guard isOpen else { throw ClientError(.closed, "not connected") }
    if let tls { return try sendSome(bytes, blocking: blocking, over: tls) }
    let flags = Int32(MSG_NOSIGNAL) | (blocking ? 0 : Int32(MSG_DONTWAIT))
    let sent = bytes.withUnsafeBytes { raw in
      Result { () throws(Errno) in try Syscall.retrying { Glibc.send(fd, raw.baseAddress, raw.count, flags) } }
    }
    switch sent {
    case .success(let count): return count
    case .failure(let error) where error.isWouldBlock: return 0
    case .failure(let error): throw lost(error.description)
    }
  }

  /// TLS has no MSG_DONTWAIT: a send that must not block makes the socket non-blocking for
  /// its length. After a want, the caller's next call starts with the same bytes, which is
  /// what OpenSSL needs to finish the record it began.
  private func sendSome(_ bytes: ArraySlice<UInt8>, blocking: Bool, over tls: TLSChannel) throws(ClientError) -> Int {
    let flags = fcntl(fd, F_GETFL)
    if !blocking { _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
    defer { if !blocking { _ = fcntl(fd, F_SETFL, flags) } }
    while true {
      switch bytes.withUnsafeBytes({ tls.write($0) }) {
      case .bytes(let count): return count
      case .wants:
        if !blocking { return 0 }
      case .closed:
        throw lost("closed by the server")
      case .failed(let error):
        throw lost(error.message)
      }
    }
  }

  /// Closes the connection and says why it was lost.
  private func lost(_ reason: String) -> ClientError {
    close()
    return ClientError(.closed, "connection to \(host):\(port) lost: \(reason)")
  }

  /// `nextItem`, giving up at `deadline` (monotonic milliseconds) when there is one.
  private func nextItem(before deadline: Int?) throws(ClientError) -> ReplyReader.Item {
    while queued.isEmpty {
      if let deadline, MonotonicClock.milliseconds() >= deadline {
        throw ClientError(.closed, "connection to \(host):\(port) lost: no greeting in time")
      }
      try readOnce()
    }
    return queued.removeFirst()
  }

  /// The next reply or event, reading (and waiting) as needed.
  public func nextItem() throws(ClientError) -> ReplyReader.Item {
    while queued.isEmpty {
      try readOnce()
    }
    return queued.removeFirst()
  }

  /// Items already read and framed, without touching the socket.
  public func takeQueued() -> [ReplyReader.Item] {
    defer { queued.removeAll() }
    return queued
  }

  /// True when a read would not block: data, or the end of the connection, is waiting.
  public func isReadable(timeoutMilliseconds: Int32 = 0) -> Bool {
    guard isOpen else { return false }
    if tls?.hasBufferedInput == true { return true }
    var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    let result = poll(&entry, 1, timeoutMilliseconds)
    return result > 0
  }

  /// One read(2); the items it completed are queued. Throws when the server has gone.
  public func readOnce() throws(ClientError) {
    guard isOpen else { throw ClientError(.closed, "not connected") }
    var chunk = [UInt8](repeating: 0, count: 16 * 1024)
    if let tls {
      try readOnce(over: tls, into: &chunk)
      return
    }
    let read = chunk.withUnsafeMutableBytes { raw in Result { () throws(Errno) in try Syscall.read(fd, into: raw) } }
    switch read {
    case .success(0): throw lost("closed by the server")
    case .success(let count): frame(chunk[..<count])
    case .failure(let error): throw lost(error.description)
    }
  }

  /// One TLS read, and whatever else TLS already holds: the caller polls the socket next,
  /// which cannot see bytes TLS has taken off it.
  private func readOnce(over tls: TLSChannel, into chunk: inout [UInt8]) throws(ClientError) {
    repeat {
      switch chunk.withUnsafeMutableBytes({ tls.read(into: $0) }) {
      case .bytes(let count):
        frame(chunk[..<count])
      case .wants:
        // A record without data (a session ticket); the next read waits for more.
        return
      case .closed:
        throw lost("closed by the server")
      case .failed(let error):
        throw lost(error.message)
      }
    } while tls.hasBufferedInput
  }

  /// Queues the items `bytes` completes.
  private func frame(_ bytes: ArraySlice<UInt8>) {
    buffer.append(contentsOf: bytes)
    var start = 0
    while let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
      let line = String(decoding: buffer[start..<newline], as: UTF8.self)
      start = newline + 1
      if let item = reader.feed(line) { queued.append(item) }
    }
    buffer.removeFirst(start)
  }
}

import StockroomProtocol

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One TCP connection to a server: line framing in, whole lines out.
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

  private init(host: String, port: UInt16, fd: Int32) {
    self.host = host
    self.port = port
    self.fd = fd
  }

  deinit { close() }

  /// Connects and reads the greeting; a full server's `ERR LIMIT` greeting is an error. With a
  /// limit, the connect and the greeting each give up after that many milliseconds: a retry
  /// runs inside the editor's wait, and a host that never answers must not freeze the keyboard.
  public static func open(
    host: String, port: UInt16, limitMilliseconds: Int32? = nil
  ) throws(ClientError) -> Connection {
    let fd = try connectSocket(host: host, port: port, limitMilliseconds: limitMilliseconds)
    if let limitMilliseconds { setReceiveLimit(fd, milliseconds: limitMilliseconds) }
    let connection = Connection(host: host, port: port, fd: fd)
    var first: Reply? = nil
    while first == nil {
      let item: ReplyReader.Item
      do {
        item = try connection.nextItem()
      } catch {
        throw ClientError(.unreachable, "\(host):\(port) closed the connection before greeting")
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
      let fd = socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
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
    throw ClientError(.unreachable, "cannot connect to \(host):\(port): \(String(cString: strerror(lastError)))")
  }

  public func close() {
    guard isOpen else { return }
    isOpen = false
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
    let flags = Int32(MSG_NOSIGNAL) | (blocking ? 0 : Int32(MSG_DONTWAIT))
    while true {
      let result = bytes.withUnsafeBytes { raw in Glibc.send(fd, raw.baseAddress, raw.count, flags) }
      if result >= 0 { return result }
      let error = errno
      if error == EINTR { continue }
      if error == EAGAIN || error == EWOULDBLOCK { return 0 }
      close()
      throw ClientError(.closed, "connection to \(host):\(port) lost: \(String(cString: strerror(error)))")
    }
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
    var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    let result = poll(&entry, 1, timeoutMilliseconds)
    return result > 0
  }

  /// One read(2); the items it completed are queued. Throws when the server has gone.
  public func readOnce() throws(ClientError) {
    guard isOpen else { throw ClientError(.closed, "not connected") }
    var chunk = [UInt8](repeating: 0, count: 16 * 1024)
    var count: Int
    repeat {
      count = chunk.withUnsafeMutableBytes { raw in Glibc.read(fd, raw.baseAddress, raw.count) }
    } while count < 0 && errno == EINTR
    if count <= 0 {
      let reason = count == 0 ? "closed by the server" : String(cString: strerror(errno))
      close()
      throw ClientError(.closed, "connection to \(host):\(port) lost: \(reason)")
    }
    buffer.append(contentsOf: chunk[..<count])
    var start = 0
    while let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
      let line = String(decoding: buffer[start..<newline], as: UTF8.self)
      start = newline + 1
      if let item = reader.feed(line) { queued.append(item) }
    }
    buffer.removeFirst(start)
  }
}

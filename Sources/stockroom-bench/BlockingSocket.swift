import StockroomTLS

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One TCP connection with blocking calls and a receive buffer, owned by a single thread.
///
/// Both directions time out, so a stalled server ends the connection instead of the run. With a
/// TLS context the bytes go through TLS, handshake done in `init`.
final class BlockingSocket {
  private let fd: Int32
  private var tls: TLSChannel?
  private let timeoutSeconds: Int
  private var buffer: UnsafeMutableRawBufferPointer
  private var start = 0
  private var end = 0

  /// The socket itself, for a caller that waits on many with epoll.
  var descriptor: Int32 { fd }

  /// True when no received byte is left unread in the buffer.
  var isDrained: Bool { start == end }

  /// `bufferBytes` is small for connections that only ever see a short reply (idle, fan-out),
  /// so that ten thousand of them do not cost the client much memory.
  init(
    host: String, port: UInt16, timeoutSeconds: Int, bufferBytes: Int = 64 * 1024, tls: TLSContext? = nil
  ) throws(BenchError) {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
      throw BenchError("--host takes a numeric IPv4 address, not '\(host)'")
    }
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw BenchError("socket: \(Self.lastError())") }
    var one: Int32 = 1
    var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
    // Without NODELAY a small pipelined batch can wait on Nagle for the previous batch's ACK.
    setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      let reason = Self.lastError()
      close(fd)
      throw BenchError("connect to \(host):\(port): \(reason)")
    }
    self.fd = fd
    self.timeoutSeconds = timeoutSeconds
    self.buffer = .allocate(byteCount: bufferBytes, alignment: 16)
    if let tls { self.tls = try Self.handshake(tls, fd: fd, host: host) }
  }

  private static func handshake(_ context: TLSContext, fd: Int32, host: String) throws(BenchError) -> TLSChannel {
    do {
      let channel = try TLSChannel(context: context, fd: fd, host: host)
      while true {
        switch channel.handshake() {
        case .done: return channel
        case .wants: continue
        case .failed(let error): throw error
        }
      }
    } catch {
      throw BenchError("TLS handshake with \(host): \(error)")
    }
  }

  deinit {
    close(fd)
    buffer.deallocate()
  }

  func send(_ bytes: [UInt8]) throws(BenchError) {
    if let tls {
      try send(bytes, over: tls)
      return
    }
    var offset = 0
    while offset < bytes.count {
      // MSG_NOSIGNAL: a server that hangs up should fail this connection, not kill the process.
      let sent = bytes.withUnsafeBytes {
        Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
      }
      if sent < 0 {
        if errno == EINTR { continue }
        if errno == EAGAIN { throw BenchError("send blocked for \(timeoutSeconds) s") }
        throw BenchError("send: \(Self.lastError())")
      }
      offset += sent
    }
  }

  private func send(_ bytes: [UInt8], over tls: TLSChannel) throws(BenchError) {
    var offset = 0
    while offset < bytes.count {
      switch bytes[offset...].withUnsafeBytes({ tls.write($0) }) {
      case .bytes(let count): offset += count
      case .wants: continue
      case .closed: throw BenchError("server closed the connection")
      case .failed(let error): throw BenchError("TLS send: \(error)")
      }
    }
  }

  /// Blocks until a whole reply is buffered and consumes it. The text is decoded only when
  /// asked for, because the measuring loop needs just the verdict.
  func nextReply(_ dialect: some Dialect, keepingText: Bool = false) throws(BenchError) -> (
    failed: Bool, text: String
  ) {
    while true {
      let pending = UnsafeRawBufferPointer(rebasing: buffer[start..<end])
      if let reply = dialect.scan(pending) {
        var text = ""
        if keepingText {
          text = String(decoding: pending[..<reply.length], as: UTF8.self)
          while text.last?.isNewline == true { text.removeLast() }
        }
        start += reply.length
        if start == end {
          start = 0
          end = 0
        }
        return (reply.failed, text)
      }
      try receive()
    }
  }

  private func receive() throws(BenchError) {
    if end == buffer.count {
      if start > 0 {
        buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + start, byteCount: end - start)
        end -= start
        start = 0
      } else {
        // One reply bigger than the buffer: keep all of it and make room.
        let larger = UnsafeMutableRawBufferPointer.allocate(
          byteCount: buffer.count * 2, alignment: 16)
        larger.copyMemory(from: UnsafeRawBufferPointer(buffer))
        buffer.deallocate()
        buffer = larger
      }
    }
    if let tls {
      while true {
        switch tls.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[end...])) {
        case .bytes(let count):
          end += count
          return
        // The receive timeout, or a record without data (a session ticket): read on.
        case .wants:
          if errno == EAGAIN || errno == EWOULDBLOCK { throw BenchError("no reply for \(timeoutSeconds) s") }
        case .closed: throw BenchError("server closed the connection")
        case .failed(let error): throw BenchError("TLS receive: \(error)")
        }
      }
    }
    while true {
      let received = recv(fd, buffer.baseAddress! + end, buffer.count - end, 0)
      if received > 0 {
        end += received
        return
      }
      if received == 0 { throw BenchError("server closed the connection") }
      if errno == EINTR { continue }
      if errno == EAGAIN { throw BenchError("no reply for \(timeoutSeconds) s") }
      throw BenchError("recv: \(Self.lastError())")
    }
  }

  private static func lastError() -> String {
    String(cString: strerror(errno))
  }
}

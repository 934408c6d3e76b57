import StockroomEngine
import StockroomProtocol
import StockroomSystem
import StockroomTLS

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// TLS over the socket, on the TLS port: a handshake before anything else, records that can
/// hold more than one read's worth, and close_notify before the sending side is shut.
final class TLSStream: ConnectionStream {
  private let fd: Int32
  private let channel: TLSChannel
  /// The first byte was looked at: later handshake records start otherwise (20, 23).
  private var probed = false

  init(fd: Int32, channel: TLSChannel) {
    self.fd = fd
    self.channel = channel
  }

  var needsHandshake: Bool { true }
  var hasBufferedInput: Bool { channel.hasBufferedInput }
  var holdsIdleBuffers: Bool { true }

  func releaseIdleBuffers() -> Bool {
    channel.releaseBuffers()
  }

  func handshake() -> StreamHandshake {
    if !probed {
      probed = true
      if refusedPlainText() { return .foreign }
    }
    switch channel.handshake() {
    case .done:
      let client = channel.peerSubject.map { " client=\"\($0)\"" } ?? ""
      return .done(channel.negotiated + client)
    case .wants(let want): return .wants(Self.interest(want))
    case .failed(let error): return .failed(error.message)
    }
  }

  func read(into buffer: UnsafeMutableRawBufferPointer) -> StreamRead {
    switch channel.read(into: buffer) {
    case .bytes(let count): .bytes(count)
    case .wants: .wouldBlock
    // With or without close_notify: the client asked what it asked, as after a half-close.
    case .closed: .ended
    case .failed(let error): .failed(.tlsFailed(error.message))
    }
  }

  func write(_ bytes: UnsafeRawBufferPointer) -> StreamWrite {
    switch channel.write(bytes) {
    case .bytes(let count): .bytes(count)
    case .wants(let want): .blocked(Self.interest(want))
    case .closed: .failed(.clientClosed)
    case .failed(let error): .failed(.tlsFailed(error.message))
    }
  }

  /// close_notify says the replies ended here rather than being cut off. The socket took the
  /// last reply, so its few bytes fit; if not, the peer sees the FIN alone.
  func shutdownOutput() {
    _ = channel.shutdown()
    Glibc.shutdown(fd, Int32(SHUT_WR))
  }

  private static func interest(_ want: TLSWant) -> EventLoop.Interest {
    want == .read ? .read : .write
  }

  /// A TLS client's first byte is always 22 (a handshake record). Anything else is someone
  /// typing at the port, or another protocol: told in one plain line, not a TLS alert it could
  /// not read.
  private func refusedPlainText() -> Bool {
    var first: UInt8 = 0
    let count = recv(fd, &first, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT))
    guard count == 1, first != 22 else { return false }
    var line = ReplyEncoder(capacity: 160)
    line.error(
      ProtocolError(
        .foreignProtocol,
        "this port speaks TLS; connect with stockroom --tls (or a stockrooms:// URL), or use the plain-text port"))
    _ = line.bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL)) }
    Glibc.shutdown(fd, Int32(SHUT_WR))
    // Unread input would make close answer with a reset that can destroy the line.
    let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 16 * 1024, alignment: 16)
    defer { scratch.deallocate() }
    for _ in 0..<16 {
      guard let count = try? Syscall.read(fd, into: scratch), count > 0 else { break }
    }
    return true
  }
}

import Foundation
import StockroomProtocol
import StockroomTLS
import Testing

@testable import StockroomEngineHarness

#if canImport(Glibc)
  import Glibc
#endif

/// A plain blocking TCP client that speaks the protocol line by line, as a script would; with
/// a TLS context, the same inside TLS.
final class LineClient: LineProtocolClient, @unchecked Sendable {
  typealias Failure = ClientFailure

  /// The socket; -1 for a client of an `EngineHarness`.
  private let descriptor: Int32

  /// The socket, for a test that asks the kernel about it (poll, ioctl, shutdown). An
  /// `EngineHarness` client has none, and poll() on -1 reports nothing to read whatever the
  /// engine has answered, so a check of "still waiting" could never fail there: asking is a
  /// failure, which says to run the test on `TestServer`.
  var fd: Int32 {
    if engine != nil {
      Issue.record("a socket asked of an EngineHarness client, which has none: run this test on TestServer")
    }
    return descriptor
  }
  let received = ReceivedLines()
  /// Set for a client on the TLS port, once its handshake is done.
  private var tls: TLSChannel?
  /// Set for a client of an `EngineHarness`: no socket, the engine's bytes moved by the
  /// harness's own client.
  private let engine: EngineClient?
  /// The engine's channel, for a client of an `EngineHarness`.
  var embedded: EmbeddedChannel? { engine?.channel }

  /// A client of the engine itself, through `channel` (see `EngineHarness`).
  init(embedded channel: EmbeddedChannel) {
    descriptor = -1
    engine = EngineClient(channel)
    closed = true
  }

  /// With `tls`, the handshake is done before this returns (or throws its `TLSError`); the
  /// server's certificate is checked against `verifyHost`, by default the address dialled. With
  /// `source`, the connection comes from that local address.
  init(
    port: UInt16, receiveTimeout: Int = 30, receiveBuffer: Int32? = nil, tls: TLSContext? = nil,
    address: String = "127.0.0.1", verifyHost: String? = nil, from source: String? = nil
  ) throws {
    engine = nil
    descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else { throw Failure(description: "socket: \(errno)") }
    // Another loopback address (127.0.0.2 and up) stands for another host.
    if let source, Loopback.bind(descriptor, to: source) != 0 { throw Failure(description: "bind \(source): \(errno)") }
    if var size = receiveBuffer {
      // Before connect, so the window the server sees is small from the start.
      setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }
    // From here a throw runs deinit, which closes the socket: closing it here as well closed
    // whatever descriptor another test's thread had been given that number in between.
    guard Loopback.connect(descriptor, port: port, address: address) == 0 else {
      throw Failure(description: "connect: \(errno)")
    }
    var timeout = timeval(tv_sec: receiveTimeout, tv_usec: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var one: Int32 = 1
    setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    guard let tls else { return }
    let channel = try TLSChannel(context: tls, fd: descriptor, host: verifyHost ?? address)
    while true {
      switch channel.handshake() {
      case .done: break
      case .wants: continue
      case .failed(let error): throw error
      }
      break
    }
    self.tls = channel
  }

  private var closed = false

  /// An engine's channel is closed too: a completion queued on it after the test's last read
  /// would otherwise keep it, and its engine, alive.
  deinit {
    engine?.closeNow()
    if !closed { close(descriptor) }
  }

  /// Closes with a reset (SO_LINGER 0) instead of a FIN, as a crashed or hostile peer may.
  func resetNow() {
    engine?.closeNow()
    guard !closed else { return }
    Loopback.resetOnClose(descriptor)
    closeNow()
  }

  /// Closes the socket now, as a client that goes away does.
  func closeNow() {
    engine?.closeNow()
    guard !closed else { return }
    closed = true
    close(descriptor)
  }

  func send(_ bytes: [UInt8]) throws {
    if let engine {
      try engine.send(bytes)
      return
    }
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes { raw in
        guard let tls else { return write(descriptor, raw.baseAddress, raw.count) }
        if case .bytes(let count) = tls.write(raw) { return count }
        return -1
      }
      guard written > 0 else { throw Failure(description: "write failed: errno \(errno)") }
      offset += written
    }
  }

  /// The next bytes the server sent; none once it closed the connection (or reset it).
  func receive() throws -> [UInt8] {
    if let engine { return try engine.receive() }
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = chunk.withUnsafeMutableBytes { raw in
        guard let tls else { return read(descriptor, raw.baseAddress, raw.count) }
        switch tls.read(into: raw) {
        case .bytes(let count): return count
        case .closed: return 0
        case .wants:
          // The receive timeout (EAGAIN stays set), or a record without data (a session
          // ticket): nothing to return yet, read on.
          if errno != EAGAIN && errno != EWOULDBLOCK { errno = EINTR }
          return -1
        case .failed(let error):
          errno = error.kind == .io && error.message == "timed out" ? EAGAIN : ECONNRESET
          return -1
        }
      }
      if count == 0 { return [] }
      if count < 0 {
        if errno == EINTR { continue }
        if errno == ECONNRESET { return [] }
        throw Failure(description: "read failed or timed out: errno \(errno)")
      }
      return Array(chunk[..<count])
    }
  }
}

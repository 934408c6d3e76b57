import Foundation
import StockroomProtocol

#if canImport(Glibc)
  import Glibc
#endif

/// A plain blocking TCP client that speaks the protocol line by line, as a script would.
final class LineClient: @unchecked Sendable {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  let fd: Int32
  private var buffer: [UInt8] = []
  private var reader = ReplyReader()
  /// Every event line seen while reading replies, in arrival order.
  private(set) var events: [Row] = []
  /// Every line received, in order, for checks on where events fall.
  private(set) var transcript: [String] = []

  init(port: UInt16, receiveTimeout: Int = 30, receiveBuffer: Int32? = nil) throws {
    fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw Failure(description: "socket: \(errno)") }
    if var size = receiveBuffer {
      // Before connect, so the window the server sees is small from the start.
      setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }
    guard Loopback.connect(fd, port: port) == 0 else {
      close(fd)
      throw Failure(description: "connect: \(errno)")
    }
    var timeout = timeval(tv_sec: receiveTimeout, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var one: Int32 = 1
    setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
  }

  private var closed = false

  deinit { if !closed { close(fd) } }

  /// Closes with a reset (SO_LINGER 0) instead of a FIN, as a crashed or hostile peer may.
  func resetNow() {
    guard !closed else { return }
    Loopback.resetOnClose(fd)
    closeNow()
  }

  /// Closes the socket now, as a client that goes away does.
  func closeNow() {
    guard !closed else { return }
    closed = true
    close(fd)
  }

  func send(_ text: String) throws {
    try send(Array(text.utf8))
  }

  func send(_ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
      guard written > 0 else { throw Failure(description: "write failed: errno \(errno)") }
      offset += written
    }
  }

  /// The next line without its LF, or nil when the server closed the connection.
  func readLine() throws -> String? {
    while true {
      if let lf = buffer.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: buffer[..<lf], as: UTF8.self)
        buffer.removeSubrange(...lf)
        transcript.append(line)
        return line
      }
      var chunk = [UInt8](repeating: 0, count: 65536)
      let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count == 0 { return nil }
      if count < 0 {
        if errno == EINTR { continue }
        if errno == ECONNRESET { return nil }
        throw Failure(description: "read failed or timed out: errno \(errno)")
      }
      buffer.append(contentsOf: chunk[..<count])
    }
  }

  /// The next whole reply; events met on the way are kept in `events`.
  func readReply() throws -> Reply {
    while let line = try readLine() {
      switch reader.feed(line) {
      case .reply(let reply)?: return reply
      case .event(let row, _)?: events.append(row)
      case nil: continue
      }
    }
    throw Failure(description: "connection closed before the reply ended")
  }

  /// Waits for the next event, reading past nothing else.
  func readEvent() throws -> Row {
    if !events.isEmpty { return events.removeFirst() }
    while let line = try readLine() {
      switch reader.feed(line) {
      case .event(let row, _)?: return row
      case .reply(let reply)?: throw Failure(description: "expected an event, got a reply: \(reply.lines)")
      case nil: continue
      }
    }
    throw Failure(description: "connection closed while waiting for an event")
  }

  func takeEvents() -> [Row] {
    defer { events = [] }
    return events
  }

  @discardableResult
  func request(_ line: String) throws -> Reply {
    try send(line + "\n")
    return try readReply()
  }

  /// True once the server has closed: reads until end of file.
  func readsToEnd() throws -> [String] {
    var lines: [String] = []
    while let line = try readLine() { lines.append(line) }
    return lines
  }
}

import StockroomProtocol

/// A test's client of the engine alone: the protocol line by line, as the server's tests'
/// `LineClient` speaks it, through an `EmbeddedChannel` instead of a socket. There is no
/// descriptor to ask the kernel about: a test that needs one is a socket test.
final class EngineClient: @unchecked Sendable {
  struct Failure: Error, CustomStringConvertible {
    var description: String
    /// The engine answered, but not as asked.
    var isReply = false
  }

  let channel: EmbeddedChannel
  private var buffer: [UInt8] = []
  private var reader = ReplyReader()
  /// Every event line seen while reading replies, in arrival order.
  private(set) var events: [Row] = []
  /// Every line received, in order, for checks on where events fall.
  private(set) var transcript: [String] = []

  init(_ channel: EmbeddedChannel) {
    self.channel = channel
  }

  /// The channel is closed too: a completion queued on it after the test's last read would
  /// otherwise keep it, and its engine, alive.
  deinit { channel.close() }

  /// The client goes away now.
  func closeNow() { channel.close() }

  func send(_ text: String) throws {
    try send(Array(text.utf8))
  }

  func send(_ bytes: [UInt8]) throws {
    guard !channel.isClosed else { throw Failure(description: "write failed: the engine closed the connection") }
    channel.write(bytes)
  }

  /// The next line without its LF, or nil when the engine closed the connection.
  func readLine() throws -> String? {
    while true {
      if let lf = buffer.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: buffer[..<lf], as: UTF8.self)
        buffer.removeSubrange(...lf)
        transcript.append(line)
        return line
      }
      let answered = try channel.read()
      if answered.isEmpty { return nil }
      buffer.append(contentsOf: answered)
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

  /// True once the engine has closed: reads until end of file.
  func readsToEnd() throws -> [String] {
    var lines: [String] = []
    while let line = try readLine() { lines.append(line) }
    return lines
  }
}

import StockroomProtocol

/// A test's client that speaks the protocol line by line, as a script would: over a socket
/// (the server tests' `LineClient`) or an engine's `EmbeddedChannel` (`EngineClient`). Only
/// moving bytes differs between the two; reading lines, replies and events is written once here.
package protocol LineProtocolClient: AnyObject {
  var received: ReceivedLines { get }
  func send(_ bytes: [UInt8]) throws
  /// The next bytes from the other end; none once it has closed.
  func receive() throws -> [UInt8]
}

extension LineProtocolClient {
  /// Every event line seen while reading replies, in arrival order.
  package var events: [Row] { received.events }
  /// Every line received, in order, for checks on where events fall.
  package var transcript: [String] { received.transcript }

  package func send(_ text: String) throws {
    try send(Array(text.utf8))
  }

  /// The next line without its LF, or nil when the other end closed the connection.
  package func readLine() throws -> String? {
    while true {
      if let line = received.nextLine() { return line }
      let bytes = try receive()
      if bytes.isEmpty { return nil }
      received.append(bytes)
    }
  }

  /// The next whole reply; events met on the way are kept in `events`.
  package func readReply() throws -> Reply {
    while let line = try readLine() {
      switch received.reader.feed(line) {
      case .reply(let reply)?: return reply
      case .event(let row, _)?: received.events.append(row)
      case nil: continue
      }
    }
    throw ClientFailure(description: "connection closed before the reply ended")
  }

  /// Waits for the next event, reading past nothing else.
  package func readEvent() throws -> Row {
    if !received.events.isEmpty { return received.events.removeFirst() }
    while let line = try readLine() {
      switch received.reader.feed(line) {
      case .event(let row, _)?: return row
      case .reply(let reply)?: throw ClientFailure(description: "expected an event, got a reply: \(reply.lines)")
      case nil: continue
      }
    }
    throw ClientFailure(description: "connection closed while waiting for an event")
  }

  package func takeEvents() -> [Row] {
    defer { received.events = [] }
    return received.events
  }

  @discardableResult
  package func request(_ line: String) throws -> Reply {
    try send(line + "\n")
    return try readReply()
  }

  /// True once the other end has closed: reads until end of file.
  package func readsToEnd() throws -> [String] {
    var lines: [String] = []
    while let line = try readLine() { lines.append(line) }
    return lines
  }
}

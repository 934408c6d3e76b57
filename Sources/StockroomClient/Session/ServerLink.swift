import StockroomProtocol
import StockroomSocket
import StockroomSystem
import StockroomTLS

/// The client's link to one server (the server's own side of a connection is the transport's
/// `Connection`), in clear or inside TLS: line framing in, whole lines out.
///
/// Blocking on purpose: the client has one thread, and every wait either is for the server
/// or goes through poll(2) with stdin, so nothing else could run meanwhile anyway. The bytes
/// move through a `ClientSocket`, the one the bench uses too.
public final class ServerLink {
  public var host: String { socket.host }
  public var port: UInt16 { socket.port }
  /// The socket, for poll(2) beside stdin; -1 once closed.
  public var fd: Int32 { socket.descriptor }
  /// The server's greeting, e.g. `OK stockroomd 0.1.0 protocol=1 ready; ...`.
  public private(set) var greeting = ""
  private var buffer: [UInt8] = []
  private var reader = ReplyReader()
  private var queued: [ReplyReader.Item] = []
  public var isOpen: Bool { socket.isOpen }
  private let socket: ClientSocket
  private let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 16 * 1024, alignment: 16)

  private init(socket: ClientSocket) {
    self.socket = socket
  }

  deinit {
    close()
    chunk.deallocate()
  }

  /// Connects and reads the greeting; a full server's `ERR LIMIT` greeting is an error. With a
  /// limit, the connect and the greeting each give up after that many milliseconds: a retry
  /// runs inside the editor's wait, and a host that never answers must not freeze the keyboard.
  /// With `tls`, the handshake is done (and the certificate checked) before the greeting.
  public static func open(
    host: String, port: UInt16, limitMilliseconds: Int32? = nil, tls: ClientTLS? = nil
  ) throws(ClientError) -> ServerLink {
    let context = try tls?.context()
    let socket: ClientSocket
    do {
      socket = try ClientSocket.connect(host: host, port: port, limitMilliseconds: limitMilliseconds, tls: context)
    } catch {
      throw refusal(error, host: host, port: port)
    }
    let deadline = limitMilliseconds.map { MonotonicClock.milliseconds() + Int($0) }
    let connection = ServerLink(socket: socket)
    var first: Reply? = nil
    while first == nil {
      let item: ReplyReader.Item
      do {
        item = try connection.nextItem(before: deadline)
      } catch {
        // Over TLS the reason matters: a server that wants a client certificate says so here.
        // A TLS port waits for a ClientHello a plain client never sends, and closes at its deadline.
        let reason = context == nil ? "; if it is a TLS port, connect with --tls" : " (\(error.message))"
        throw ClientError(.unreachable, "\(host):\(port) closed the connection before greeting\(reason)")
      }
      if case .reply(let reply) = item { first = reply }
    }
    guard let greeting = first, greeting.isOK else {
      connection.close()
      throw ClientError(
        .refused, "\(host):\(port) refused: \(VisibleControls.escaped(first?.lines.last ?? "", lineBreaks: false))")
    }
    // Shown in the banner: the server's words, so no controls reach the terminal.
    connection.greeting = VisibleControls.escaped(greeting.lines.last ?? "", lineBreaks: false)
    if limitMilliseconds != nil { socket.setReceiveLimit(milliseconds: 0) }
    return connection
  }

  /// Why no connection was made, as the client says it.
  private static func refusal(_ error: ClientSocketError, host: String, port: UInt16) -> ClientError {
    switch error {
    case .handshake(let failure): ClientTLS.explain(failure, place: "\(host):\(port)", host: host)
    case .unresolved: ClientError(.unreachable, "\(error)")
    default: ClientError(.unreachable, "cannot connect to \(host):\(port): \(error)")
    }
  }

  /// Ends the connection; over TLS with close_notify, so the server can tell a goodbye from a
  /// cut connection.
  public func close() {
    socket.close()
  }

  /// Writes the line and its LF, all of it, or fails.
  public func send(_ line: String) throws(ClientError) {
    guard isOpen else { throw ClientError(.closed, "not connected") }
    do {
      try socket.sendAll((line + "\n").utf8)
    } catch {
      throw lost(error)
    }
  }

  /// Writes what the socket takes now; 0 when it takes nothing without blocking.
  public func sendSome(_ bytes: ArraySlice<UInt8>, blocking: Bool) throws(ClientError) -> Int {
    guard isOpen else { throw ClientError(.closed, "not connected") }
    do {
      return try socket.send(bytes, blocking: blocking)
    } catch {
      throw lost(error)
    }
  }

  /// Closes the connection and says why it was lost.
  private func lost(_ reason: ClientSocketError) -> ClientError {
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
    socket.isReadable(timeoutMilliseconds: timeoutMilliseconds)
  }

  /// One read, and whatever else TLS already holds (the caller polls the socket next, which
  /// cannot see bytes TLS has taken off it); the items it completed are queued. Throws when the
  /// server has gone. A read that came back empty (a TLS record without data, or the limit
  /// while waiting for the greeting) queues nothing, and the caller reads again.
  public func readOnce() throws(ClientError) {
    guard isOpen else { throw ClientError(.closed, "not connected") }
    repeat {
      let count: Int
      do {
        count = try socket.receive(into: chunk)
      } catch .timedOut {
        return
      } catch {
        throw lost(error)
      }
      guard count > 0 else { return }
      frame(UnsafeRawBufferPointer(rebasing: chunk[..<count]))
    } while socket.hasBufferedInput
  }

  /// Queues the items `bytes` completes.
  private func frame(_ bytes: UnsafeRawBufferPointer) {
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

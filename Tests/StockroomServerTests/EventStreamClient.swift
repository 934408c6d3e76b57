import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// `/events` read as a browser's EventSource reads it, over a plain socket: one HTTP/1.1 GET,
/// then the chunked body taken apart into Server-Sent Events.
final class EventStreamClient {
  struct Event {
    var id: Int?
    var object: [String: Any]
    var type: String { object["type"] as? String ?? "" }
    subscript(key: String) -> Any? { object[key] }
  }

  let fd: Int32
  private(set) var head = ""
  private var raw: [UInt8] = []
  private var body: [UInt8] = []

  /// Connects and reads the response's head; `lastEventID` is sent as a reconnecting browser
  /// sends it. `receiveBuffer`, when given, is set before connecting (a small one makes a
  /// client that stops reading fill up soon).
  init(port: UInt16, lastEventID: Int? = nil, receiveBuffer: Int32? = nil, from source: String = "127.0.0.1") throws {
    fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    _ = Loopback.bind(fd, to: source)
    if var size = receiveBuffer { setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size)) }
    var limit = timeval(tv_sec: 20, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    guard Loopback.connect(fd, port: port) == 0 else {
      close(fd)
      throw LineClient.Failure(description: "connect to \(port): errno \(errno)")
    }
    let resume = lastEventID.map { "Last-Event-ID: \($0)\r\n" } ?? ""
    let request = "GET /events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n\(resume)\r\n"
    _ = request.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    var headEnd: Range<Int>?
    while headEnd == nil {
      guard try fill() else { throw LineClient.Failure(description: "closed before the head") }
      headEnd = raw.firstRange(of: Array("\r\n\r\n".utf8))
    }
    head = String(decoding: raw[..<headEnd!.lowerBound], as: UTF8.self)
    raw.removeSubrange(..<headEnd!.upperBound)
  }

  deinit { closeNow() }

  private var closed = false

  func closeNow() {
    guard !closed else { return }
    closed = true
    close(fd)
  }

  /// Reads once from the socket into `raw`; false at its end.
  private func fill() throws -> Bool {
    var chunk = [UInt8](repeating: 0, count: 65536)
    let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
    if count == 0 { return false }
    guard count > 0 else { throw LineClient.Failure(description: "read from /events: errno \(errno)") }
    raw += chunk[..<count]
    return true
  }

  /// Moves whole chunks from `raw` to `body`.
  private func dechunk() throws {
    while let line = raw.firstRange(of: Array("\r\n".utf8)) {
      let sizeText = String(decoding: raw[..<line.lowerBound], as: UTF8.self)
      guard let size = Int(sizeText, radix: 16) else {
        throw LineClient.Failure(description: "bad chunk size \(sizeText.debugDescription)")
      }
      guard raw.count >= line.upperBound + size + 2 else { return }
      body += raw[line.upperBound..<(line.upperBound + size)]
      raw.removeSubrange(..<(line.upperBound + size + 2))
    }
  }

  /// The next event with data (a `retry:` alone is none), waiting for it.
  func next() throws -> Event {
    while true {
      try dechunk()
      if let end = body.firstRange(of: Array("\n\n".utf8)) {
        let block = String(decoding: body[..<end.lowerBound], as: UTF8.self)
        body.removeSubrange(..<end.upperBound)
        var event = Event(id: nil, object: [:])
        var data: String?
        for line in block.split(separator: "\n") {
          if line.hasPrefix("id: ") { event.id = Int(line.dropFirst(4)) }
          if line.hasPrefix("data: ") { data = String(line.dropFirst(6)) }
        }
        guard let data else { continue }
        event.object = try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any] ?? [:]
        return event
      }
      guard try fill() else { throw LineClient.Failure(description: "/events ended") }
    }
  }

  /// The next event of `type`, skipping the others (`stats` ticks come every 2 s).
  func next(_ type: String) throws -> Event {
    while true {
      let event = try next()
      if event.type == type { return event }
    }
  }

  /// True once the server has closed or reset the stream (reading what it still held until
  /// then); false if it is still open after 30 s (its `stats` ticks keep a receive timeout from
  /// ever running out, so the bound is a deadline).
  func readsToEnd() -> Bool {
    let deadline = Date().addingTimeInterval(30)
    while Date() < deadline {
      do {
        guard try fill() else { return true }
      } catch {
        return errno == ECONNRESET
      }
      raw.removeAll(keepingCapacity: true)
    }
    return false
  }
}

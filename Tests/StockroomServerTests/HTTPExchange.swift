import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// One HTTP exchange over a raw socket to 127.0.0.1, bytes exactly as given, the answer read
/// to the server's close: what a scraper, or a broken or hostile client, sends.
struct HTTPExchange {
  var status: Int
  var headers: [(name: String, value: String)]
  var body: String

  func header(_ name: String) -> String? {
    headers.first { $0.name.lowercased() == name.lowercased() }?.value
  }

  /// Sends `request` and reads until the server closes (at most `timeout` seconds).
  static func send(_ request: String, port: UInt16, timeout: Int = 15) throws -> HTTPExchange {
    let raw = try rawAnswer(Array(request.utf8), port: port, timeout: timeout)
    return try parse(raw)
  }

  /// A GET of `path`, from the loopback address `source`.
  static func get(_ path: String, port: UInt16, from source: String = "127.0.0.1") throws -> HTTPExchange {
    let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/plain\r\n\r\n"
    return try parse(try rawAnswer(Array(request.utf8), port: port, timeout: 15, from: source))
  }

  static func rawAnswer(_ bytes: [UInt8], port: UInt16, timeout: Int, from source: String = "127.0.0.1") throws
    -> [UInt8]
  {
    let fd = try connected(port: port, timeout: timeout, from: source)
    defer { close(fd) }
    var offset = 0
    while offset < bytes.count {
      let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      guard sent > 0 else { break }
      offset += sent
    }
    return try readToEnd(fd)
  }

  static func connected(port: UInt16, timeout: Int, from source: String = "127.0.0.1") throws -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    // The send timeout bounds the connect too (Linux): a server that stopped accepting leaves a
    // connect waiting in its full backlog for the kernel's two minutes of SYN retries.
    var limit = timeval(tv_sec: timeout, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    guard Loopback.bind(fd, to: source) == 0, Loopback.connect(fd, port: port) == 0 else {
      close(fd)
      throw LineClient.Failure(description: "connect to \(port): \(errno)")
    }
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    return fd
  }

  static func readToEnd(_ fd: Int32) throws -> [UInt8] {
    var answer: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if count == 0 { return answer }
      guard count > 0 else {
        throw LineClient.Failure(
          description: "no close from the HTTP port: errno \(errno), got \(answer.count) bytes")
      }
      answer += chunk[..<count]
    }
  }

  /// A response read strictly: status line, CRLF-ended header fields, and a body whose length
  /// is the Content-Length it was announced with.
  static func parse(_ raw: [UInt8]) throws -> HTTPExchange {
    let text = String(decoding: raw, as: UTF8.self)
    guard let split = text.range(of: "\r\n\r\n") else {
      throw LineClient.Failure(description: "no end of head in \(text.debugDescription)")
    }
    var lines = text[..<split.lowerBound].components(separatedBy: "\r\n")
    let statusLine = lines.removeFirst()
    guard let match = statusLine.wholeMatch(of: /HTTP\/1\.1 (\d{3}) [A-Za-z ]+/) else {
      throw LineClient.Failure(description: "bad status line \(statusLine.debugDescription)")
    }
    var headers: [(name: String, value: String)] = []
    for line in lines {
      guard let colon = line.firstIndex(of: ":"), !line.contains("\n") else {
        throw LineClient.Failure(description: "bad header line \(line.debugDescription)")
      }
      headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
    }
    let body = String(text[split.upperBound...])
    let exchange = HTTPExchange(status: Int(match.1)!, headers: headers, body: body)
    guard let length = exchange.header("Content-Length").flatMap(Int.init), length == body.utf8.count
    else {
      throw LineClient.Failure(
        description:
          "Content-Length \(exchange.header("Content-Length") ?? "none") for a body of \(body.utf8.count) bytes")
    }
    return exchange
  }
}

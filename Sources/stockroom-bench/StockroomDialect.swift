import StockroomTLS

/// Stockroom's line protocol: `* ` rows, then one `OK` or `ERR` status line ends each reply.
struct StockroomDialect: Dialect {
  func request(_ benchCase: BenchCase) -> [UInt8] {
    switch benchCase {
    case .ping: Array("PING\n".utf8)
    case .stock: Array("STOCK banana\n".utf8)
    case .order: Array("ORDER banana_juice\n".utf8)
    }
  }

  var watchRequest: [UInt8] { Array("WATCH banana\n".utf8) }

  /// A guest's order of one banana: every watcher of banana gets one `! stock` line.
  var changeRequest: [UInt8] { Array("ORDER banana\n".utf8) }

  /// A watcher sends nothing after WATCH, so every line it receives is an event.
  func events(in bytes: UnsafeRawBufferPointer) -> (count: Int, length: Int) {
    var count = 0
    var length = 0
    while let lineFeed = bytes.lineFeed(from: length) {
      count += 1
      length = lineFeed + 1
    }
    return (count, length)
  }

  func prepare(host: String, port: UInt16, timeoutSeconds: Int, tls: TLSContext?) throws(BenchError) {}

  /// A full server greets with `ERR LIMIT`; measuring such a connection would measure nothing.
  func greet(_ socket: BlockingSocket) throws(BenchError) {
    let greeting = try socket.nextReply(self, keepingText: true)
    if greeting.failed || !greeting.text.hasPrefix("OK ") {
      throw BenchError("greeting was '\(greeting.text)'")
    }
  }

  func scan(_ bytes: UnsafeRawBufferPointer) -> (length: Int, failed: Bool)? {
    var lineStart = 0
    while let lineFeed = bytes.lineFeed(from: lineStart) {
      let line = UnsafeRawBufferPointer(rebasing: bytes[lineStart..<lineFeed])
      if line.starts(with: "OK".utf8) { return (lineFeed + 1, false) }
      if line.starts(with: "ERR".utf8) { return (lineFeed + 1, true) }
      // Rows belong to the reply and events to nobody; neither ends the reply.
      guard line.starts(with: "*".utf8) || line.starts(with: "! ".utf8) else {
        // Anything else breaks the protocol; end the reply there as a failure, as ReplyReader does.
        return (lineFeed + 1, true)
      }
      lineStart = lineFeed + 1
    }
    return nil
  }
}

/// Short conversations with a server the comparison started: is it up, and how many group
/// commits has it made. Each is bounded by a one-second socket timeout.
enum ServerProbe {
  /// Stockroom and the C ceiling greet with `OK `; Redis answers PING with `+PONG`.
  static func answers(_ target: BenchTarget, port: UInt16) -> Bool {
    do {
      let socket = try BlockingSocket(host: "127.0.0.1", port: port, timeoutSeconds: 1, bufferBytes: 4096)
      switch target {
      case .stockroom, .ceiling:
        try StockroomDialect().greet(socket)
      case .redis:
        try socket.send(Array("PING\r\n".utf8))
        let reply = try socket.nextReply(RedisDialect(), keepingText: true)
        return !reply.failed && reply.text.hasPrefix("+PONG")
      }
      return true
    } catch {
      return false
    }
  }

  /// The group commits the node on `port` has made so far (`INFO store`'s `commits=`); 0 when
  /// it cannot say.
  static func commits(port: UInt16) -> Int {
    do {
      let socket = try BlockingSocket(host: "127.0.0.1", port: port, timeoutSeconds: 2, bufferBytes: 16 * 1024)
      try StockroomDialect().greet(socket)
      try socket.send(Array("INFO store\n".utf8))
      return commits(info: try socket.nextReply(StockroomDialect(), keepingText: true).text)
    } catch {
      return 0
    }
  }

  /// `commits=N` from the reply's `* ` rows.
  static func commits(info: String) -> Int {
    for line in info.split(separator: "\n") where line.hasPrefix("* ") {
      for field in line.split(separator: " ") where field.hasPrefix("commits=") {
        if let count = Int(field.dropFirst("commits=".count)) { return count }
      }
    }
    return 0
  }
}

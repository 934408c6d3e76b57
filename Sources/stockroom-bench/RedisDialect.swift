import StockroomTLS

/// RESP, enough of it for the three cases: simple strings, errors, integers, bulk strings and
/// arrays of them.
struct RedisDialect: Dialect {
  /// Checks and takes two bananas in one atomic step, like Stockroom's `ORDER banana_juice`.
  private static let orderScript = """
    local v=tonumber(redis.call('GET',KEYS[1])) \
    if v and v>=2 then return redis.call('DECRBY',KEYS[1],2) else return -1 end
    """

  static func command(_ words: [String]) -> [UInt8] {
    var bytes = Array("*\(words.count)\r\n".utf8)
    for word in words {
      bytes += Array("$\(word.utf8.count)\r\n".utf8)
      bytes += Array(word.utf8)
      bytes += Array("\r\n".utf8)
    }
    return bytes
  }

  func request(_ benchCase: BenchCase) -> [UInt8] {
    switch benchCase {
    case .ping: Self.command(["PING"])
    case .stock: Self.command(["GET", "banana"])
    case .order: Self.command(["EVAL", Self.orderScript, "1", "banana"])
    }
  }

  var watchRequest: [UInt8] { Self.command(["SUBSCRIBE", "banana"]) }

  /// About as long as Stockroom's event line, so that both servers send the same bytes.
  var changeRequest: [UInt8] {
    Self.command(["PUBLISH", "banana", "stock item=banana name=Banana level=999999999 change=-1 cause=order"])
  }

  /// Every complete RESP value a subscriber receives after its SUBSCRIBE reply is a message.
  func events(in bytes: UnsafeRawBufferPointer) -> (count: Int, length: Int) {
    var count = 0
    var length = 0
    while let message = value(in: bytes, at: length) {
      count += 1
      length = message.end
    }
    return (count, length)
  }

  /// Redis starts empty; every case reads or takes the same large stock Stockroom starts with.
  func prepare(host: String, port: UInt16, timeoutSeconds: Int, tls: TLSContext?) throws(BenchError) {
    let socket = try BlockingSocket(host: host, port: port, timeoutSeconds: timeoutSeconds, tls: tls)
    try socket.send(Self.command(["SET", "banana", "1000000000"]))
    let reply = try socket.nextReply(self, keepingText: true)
    if reply.failed { throw BenchError("SET banana answered '\(reply.text)'") }
  }

  func greet(_ socket: BlockingSocket) throws(BenchError) {}

  func scan(_ bytes: UnsafeRawBufferPointer) -> (length: Int, failed: Bool)? {
    value(in: bytes, at: 0).map { ($0.end, $0.failed) }
  }

  /// A negative integer or a null counts as a failure: the order script's -1 means "short", and
  /// a null from GET means the stock is missing.
  private func value(in bytes: UnsafeRawBufferPointer, at start: Int) -> (end: Int, failed: Bool)? {
    guard start < bytes.count, let lineFeed = bytes.lineFeed(from: start) else { return nil }
    let next = lineFeed + 1
    var headerEnd = lineFeed
    if headerEnd > start && bytes[headerEnd - 1] == UInt8(ascii: "\r") { headerEnd -= 1 }
    // An empty line from a broken server must not make an inverted range.
    let header = UnsafeRawBufferPointer(rebasing: bytes[min(start + 1, headerEnd)..<headerEnd])
    switch bytes[start] {
    case UInt8(ascii: "+"):
      return (next, false)
    case UInt8(ascii: ":"):
      guard let number = Self.integer(header) else { return (next, true) }
      return (next, number < 0)
    case UInt8(ascii: "$"):
      guard let length = Self.integer(header), length >= 0 else { return (next, true) }
      // A length no reply here comes near is garbage, not a reason to overflow.
      guard length <= Int(Int32.max) else { return (next, true) }
      let end = next + length + 2
      return end <= bytes.count ? (end, false) : nil
    case UInt8(ascii: "*"):
      guard let count = Self.integer(header), count >= 0 else { return (next, true) }
      var position = next
      var failed = false
      for _ in 0..<count {
        guard let element = value(in: bytes, at: position) else { return nil }
        position = element.end
        failed = failed || element.failed
      }
      return (position, failed)
    default:
      // `-` errors, and any type this client does not know.
      return (next, true)
    }
  }

  private static func integer(_ digits: UnsafeRawBufferPointer) -> Int? {
    Int(String(decoding: digits, as: UTF8.self))
  }
}

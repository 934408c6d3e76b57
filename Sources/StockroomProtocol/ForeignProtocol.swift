/// Another protocol's opening, recognised so that the server closes the connection instead of
/// running what follows.
///
/// A web page can make a browser POST to `http://127.0.0.1:7878/` with a body of Stockroom
/// commands; answering the request line and headers with errors and then running the body would
/// let any page drive a local shop. Redis closes such connections for the same reason (its
/// "Possible SECURITY ATTACK" check on `POST` and `Host:`).
public enum ForeignProtocol: String, Sendable, Equatable, CaseIterable {
  case http = "HTTP"
  /// Redis's RESP framing, `*<n>` as a first line, from a redis-cli or Redis client library.
  case resp = "RESP"
  /// A TLS ClientHello: its record starts with the handshake content type, 0x16.
  case tls = "TLS"

  /// What a connection's first bytes say, before any line is complete; nil when they look like ours.
  public static func detect(firstBytes: UnsafeRawBufferPointer) -> ForeignProtocol? {
    firstBytes.first == 0x16 ? .tls : nil
  }

  /// What a request line (without LF or the CR before it) says. `isFirst` is true for the
  /// connection's first line, where RESP's array header can only appear.
  ///
  /// It runs for every request line, so it takes the concrete slice the connection holds (a
  /// generic collection costs runtime metadata look-ups across modules), allocates nothing, and
  /// gives up at the first byte or word for our own commands.
  public static func detect(line: ArraySlice<UInt8>, isFirst: Bool) -> ForeignProtocol? {
    guard let first = line.first else { return nil }
    if isFirst && first == UInt8(ascii: "*") && line.count > 1 {
      var digits = true
      for byte in line.dropFirst() where byte < UInt8(ascii: "0") || byte > UInt8(ascii: "9") {
        digits = false
        break
      }
      if digits { return .resp }
    }
    // `Host:` and the shortest request line are five bytes or more, and begin with one of these
    // letters; most of our requests are shorter (`PING`) or begin otherwise (`STOCK banana`),
    // and are passed without the two scans.
    guard line.count >= 5 else { return nil }
    switch first {
    case UInt8(ascii: "G"), UInt8(ascii: "P"), UInt8(ascii: "D"), UInt8(ascii: "H"), UInt8(ascii: "O"),
      UInt8(ascii: "C"), UInt8(ascii: "T"), UInt8(ascii: "h"):
      if isHostHeader(line) || isRequestLine(line) { return .http }
      return nil
    default:
      return nil
    }
  }

  private static let methods: [[UInt8]] = [
    "GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH", "CONNECT", "TRACE",
  ].map { Array($0.utf8) }

  /// Whether `line` holds `word` starting at `index`.
  private static func has(_ word: [UInt8], in line: ArraySlice<UInt8>, at index: Int) -> Bool {
    guard index + word.count <= line.endIndex else { return false }
    for offset in 0..<word.count where line[index + offset] != word[offset] { return false }
    return true
  }

  /// `METHOD <target> HTTP/<version>`, as RFC 9112 writes a request line.
  private static func isRequestLine(_ line: ArraySlice<UInt8>) -> Bool {
    // The shortest is `GET / HTTP/`, longer than most of our requests (`PING`), which are
    // then passed over without a look at their bytes.
    guard line.count >= 11 else { return false }
    let start = line.startIndex
    // The version first: our requests that begin as a method might (`ORDER banana_juice`, one
    // of the bench's) fail it after a short look at their last word, without the look at the
    // nine methods (~200 instructions an ORDER).
    var lastSpace = line.endIndex - 1
    while lastSpace > start && line[lastSpace] != UInt8(ascii: " ") { lastSpace -= 1 }
    guard has(httpVersion, in: line, at: lastSpace + 1) else { return false }
    // Every method is 3 to 7 capital letters and then a space.
    var space = start
    while space < line.endIndex && space - start < 8 && line[space] != UInt8(ascii: " ") {
      guard line[space] >= UInt8(ascii: "A") && line[space] <= UInt8(ascii: "Z") else { return false }
      space += 1
    }
    guard space < line.endIndex, line[space] == UInt8(ascii: " "), space - start >= 3 else { return false }
    guard lastSpace > space else { return false }
    return methods.contains(where: { $0.count == space - start && has($0, in: line, at: start) })
  }

  private static let httpVersion = Array("HTTP/".utf8)

  /// A `Host:` header line, in any case, as a browser sends with every request.
  private static func isHostHeader(_ line: ArraySlice<UInt8>) -> Bool {
    guard line.count >= 5 else { return false }
    let start = line.startIndex
    for (offset, expected) in hostPrefix.enumerated() {
      let byte = line[start + offset]
      let lower = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
      guard lower == expected else { return false }
    }
    return true
  }

  private static let hostPrefix = Array("host:".utf8)

  /// The one line the server sends before closing, where the peer can read it.
  public var refusal: ProtocolError {
    ProtocolError(
      .foreignProtocol,
      "this is stockroomd, which speaks a line protocol, not \(rawValue); closing the connection (see Protocol.md)")
  }
}

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
  public static func detect(firstBytes: some Collection<UInt8>) -> ForeignProtocol? {
    firstBytes.first == 0x16 ? .tls : nil
  }

  /// What a request line (without LF or the CR before it) says. `isFirst` is true for the
  /// connection's first line, where RESP's array header can only appear.
  public static func detect(line: some BidirectionalCollection<UInt8>, isFirst: Bool) -> ForeignProtocol? {
    guard let first = line.first else { return nil }
    if isFirst && first == UInt8(ascii: "*") {
      let digits = line.dropFirst()
      if !digits.isEmpty && digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
        return .resp
      }
    }
    if isHostHeader(line) || isRequestLine(line) { return .http }
    return nil
  }

  private static let methods: [[UInt8]] = [
    "GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH", "CONNECT", "TRACE",
  ].map { Array($0.utf8) }

  /// `METHOD <target> HTTP/<version>`, as RFC 9112 writes a request line. Runs for every request
  /// line, so it allocates nothing and gives up at the first word for our own commands.
  private static func isRequestLine(_ line: some BidirectionalCollection<UInt8>) -> Bool {
    guard let space = line.prefix(8).firstIndex(of: UInt8(ascii: " ")) else { return false }
    let method = line[..<space]
    guard methods.contains(where: { method.elementsEqual($0) }) else { return false }
    guard let lastSpace = line.lastIndex(of: UInt8(ascii: " ")), lastSpace != space else { return false }
    return line[line.index(after: lastSpace)...].starts(with: "HTTP/".utf8)
  }

  /// A `Host:` header line, in any case, as a browser sends with every request.
  private static func isHostHeader(_ line: some Collection<UInt8>) -> Bool {
    var expected = "host:".utf8.makeIterator()
    var matched = 0
    for byte in line.prefix(5) {
      let lower = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
      guard lower == expected.next() else { return false }
      matched += 1
    }
    return matched == 5
  }

  /// The one line the server sends before closing, where the peer can read it.
  public var refusal: ProtocolError {
    ProtocolError(
      .foreignProtocol,
      "this is stockroomd, which speaks a line protocol, not \(rawValue); closing the connection (see Protocol.md)")
  }
}

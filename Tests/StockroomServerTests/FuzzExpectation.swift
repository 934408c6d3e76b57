import StockroomProtocol

/// How many replies a connection that reads everything must get for the lines it sends, worked
/// out from the lines alone by the rules of Protocol.md §2: one reply per line, except that the
/// server stops after `QUIT` and after a line over the limit, and may stop after a line of
/// another protocol (HTTP, RESP, TLS), with or without a last `ERR`, and after the fifth
/// `LOGIN` or `PASSWD` (which closes the connection when it is the fifth to fail, and whether it
/// fails depends on the accounts other connections make meanwhile).
struct FuzzExpectation: Sendable, Equatable {
  enum Ending: Sendable, Equatable {
    /// Every line is answered; the last is a `PING` whose echo is `text`.
    case sentinel(text: String)
    /// The line at `index` is the connection's last: `OK bye` or `ERR TOOLONG`, then the server closes.
    case closes(index: Int, kind: ClosingLine)
    /// The line at `index` may be the connection's last, for the reason `kind` says.
    case mayClose(index: Int, kind: MayClose)
  }

  enum MayClose: Sendable, Equatable {
    /// A line of another protocol: the server answers the lines before it and then may close,
    /// with or without one `ERR` line, or answer it like any line.
    case otherProtocol
    /// The fifth LOGIN or PASSWD: always answered, `ERR` or `OK`, since an attempt the model
    /// counts may succeed (on an account another connection registered meanwhile); the server
    /// closes after it only when it is the fifth failure.
    case passwordAttempt
  }

  enum ClosingLine: String, Sendable, Equatable {
    case quit, tooLong
  }

  /// Lines to send, each without its LF: cut after the first line that ends the conversation.
  let lines: [[UInt8]]
  let ending: Ending

  /// The reply count at which the server must have answered everything.
  var expectedReplies: Int {
    switch ending {
    case .sentinel: lines.count
    case .closes(let index, _): index + 1
    case .mayClose(let index, _): index + 1
    }
  }

  init(lines candidates: [FuzzLine], sentinel: String) {
    var attempts = 0
    for (index, line) in candidates.enumerated() {
      switch line.fate {
      case .answered:
        guard line.isPasswordAttempt else { continue }
        attempts += 1
        guard attempts == Self.passwordAttemptsBeforeClose else { continue }
        lines = candidates[...index].map(\.bytes)
        ending = .mayClose(index: index, kind: .passwordAttempt)
        return
      case .closes(let kind):
        lines = candidates[...index].map(\.bytes)
        ending = .closes(index: index, kind: kind)
        return
      case .mayClose:
        lines = candidates[...index].map(\.bytes)
        ending = .mayClose(index: index, kind: .otherProtocol)
        return
      }
    }
    lines = candidates.map(\.bytes) + [Array("PING \(sentinel)".utf8)]
    ending = .sentinel(text: sentinel)
  }

  /// Failed attempts after which the server closes a connection (Protocol.md, LOGIN).
  static let passwordAttemptsBeforeClose = 5

  /// A LOGIN or PASSWD the table accepts: each may fail, and the fifth failure closes.
  static func isPasswordAttempt(_ line: [UInt8]) -> Bool {
    let body = (line.last == 0x0D ? line.dropLast() : line[...]).drop { $0 == 0x20 || $0 == 0x09 }
    let first = String(decoding: body.prefix(7), as: UTF8.self).uppercased()
    guard first.hasPrefix("LOGIN") || first.hasPrefix("PASSWD") else { return false }
    guard let words = try? Tokenizer.words(in: body), let request = try? CommandTable.parse(words) else {
      return false
    }
    return request.spec.id == .login || request.spec.id == .passwd
  }

  enum Fate: Sendable, Equatable {
    case answered
    case closes(ClosingLine)
    case mayClose
  }

  static func fate(of line: [UInt8], maxLine: Int) -> Fate {
    let body = line.last == 0x0D ? line.dropLast() : line[...]
    if body.count > maxLine { return .closes(.tooLong) }
    if isOtherProtocol(body) { return .mayClose }
    // Only a short line can be a QUIT without arguments; tokenizing every long one costs time.
    let trimmed = body.drop { $0 == 0x20 || $0 == 0x09 }
    if trimmed.count <= 256, let words = try? Tokenizer.words(in: trimmed),
      let request = try? CommandTable.parse(words), request.spec.id == .quit
    {
      return .closes(.quit)
    }
    return .answered
  }

  /// An HTTP request line (`<METHOD> <target> HTTP/1.x`), a `Host:` header, a RESP array header
  /// (`*<n>`) or a TLS record (first byte 0x16): what Redis and the issue close the connection on.
  /// Matched loosely (any case, anywhere in the connection) so that a stricter server passes too,
  /// and by bytes: "Host:" followed by a combining mark is still a Host header.
  private static let httpMethods: [StaticString] = [
    "get", "head", "post", "put", "delete", "connect", "options", "trace", "patch",
  ]

  static func isOtherProtocol(_ body: ArraySlice<UInt8>) -> Bool {
    guard let first = body.first else { return false }
    if first == 0x16 { return true }
    if LineBytes.line(body.prefix(5), containsIgnoringCase: "host:") { return true }
    if first == UInt8(ascii: "*") && body.count <= 24 {
      return body.dropFirst().allSatisfy { (0x30...0x39).contains($0) || $0 == UInt8(ascii: "-") || $0 == 0x0D }
    }
    let method = body.prefix(8).prefix { $0 != UInt8(ascii: " ") }
    guard body.dropFirst(method.count).first == UInt8(ascii: " "),
      httpMethods.contains(where: {
        $0.utf8CodeUnitCount == method.count && LineBytes.line(method, containsIgnoringCase: $0)
      })
    else { return false }
    return LineBytes.line(body, containsIgnoringCase: " http/1.")
  }
}

/// `stockroom://alice@host:7878`: where to connect and as whom, in one word.
///
/// The scheme is kept as a typed value so TLS (`stockrooms://`) can be told apart from plain
/// TCP by what it is rather than by a string prefix wherever the connection is made.
public struct ConnectionURL: Sendable, Equatable {
  public enum Scheme: String, Sendable, Equatable, CaseIterable {
    /// Plain TCP, the protocol as Protocol.md describes it.
    case stockroom
    /// The same protocol inside TLS, on the TLS port (7879 unless the URL says).
    case stockrooms
  }

  public var scheme: Scheme
  public var user: String?
  public var host: String?
  public var port: UInt16?

  public init(scheme: Scheme = .stockroom, user: String? = nil, host: String? = nil, port: UInt16? = nil) {
    self.scheme = scheme
    self.user = user
    self.host = host
    self.port = port
  }

  public struct Invalid: Error, Equatable, CustomStringConvertible, Sendable {
    public var message: String
    public var description: String { message }
  }

  /// True for a word meant as a URL, including one with a scheme this client does not know,
  /// which is then refused rather than sent to the server as a command.
  public static func looksLikeURL(_ word: String) -> Bool {
    guard let range = word.range(of: "://") else { return false }
    let scheme = word[..<range.lowerBound]
    return !scheme.isEmpty && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
  }

  /// Parses `SCHEME://[USER@]HOST[:PORT][/]`; HOST may be an IPv6 address in brackets.
  public static func parse(_ text: String) throws(Invalid) -> ConnectionURL {
    guard let separator = text.range(of: "://") else {
      throw Invalid(message: "not a URL: it has no '://'")
    }
    let schemeText = text[..<separator.lowerBound].lowercased()
    guard let scheme = Scheme(rawValue: schemeText) else {
      throw Invalid(
        message: "unknown URL scheme '\(schemeText)://'; use stockroom://[user@]host[:port], or stockrooms:// for TLS")
    }
    var rest = Substring(text[separator.upperBound...])
    // A password here would sit in shell history and in every `ps` listing. Checked first, and
    // no message below quotes the URL, so a password typed into one is never printed back.
    if let at = rest.lastIndex(of: "@"), rest[..<at].contains(":") {
      throw Invalid(message: "a URL cannot carry a password; use --password-file or the prompt")
    }
    if rest.hasSuffix("/") { rest.removeLast() }
    if rest.contains("/") || rest.contains("?") || rest.contains("#") {
      throw Invalid(message: "a stockroom URL has no path, query or fragment")
    }
    var url = ConnectionURL(scheme: scheme)
    if let at = rest.lastIndex(of: "@") {
      let user = rest[..<at]
      guard !user.isEmpty else { throw Invalid(message: "the URL has an empty user name before '@'") }
      url.user = String(user)
      rest = rest[rest.index(after: at)...]
    }
    var portText: Substring? = nil
    if rest.hasPrefix("[") {
      guard let close = rest.firstIndex(of: "]") else {
        throw Invalid(message: "the URL's host has an unclosed '['")
      }
      url.host = String(rest[rest.index(after: rest.startIndex)..<close])
      let after = rest[rest.index(after: close)...]
      if !after.isEmpty {
        guard after.hasPrefix(":") else { throw Invalid(message: "unexpected '\(after)' after the host") }
        portText = after.dropFirst()
      }
    } else if let colon = rest.lastIndex(of: ":") {
      url.host = String(rest[..<colon])
      portText = rest[rest.index(after: colon)...]
    } else {
      url.host = String(rest)
    }
    if url.host?.isEmpty == true { url.host = nil }
    if let portText {
      guard let port = UInt16(portText), port > 0 else {
        throw Invalid(message: "the URL's port must be 1 to 65535, not '\(portText)'")
      }
      url.port = port
    }
    return url
  }
}

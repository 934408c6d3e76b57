import CLibPQ

/// Where a PostgreSQL store is: a `postgresql://` URL or a libpq `key=value` string.
///
/// libpq's own parser checks it, so what is accepted here is exactly what libpq will use. The
/// text itself may hold a password, so it is never shown: `description` is the redacted form.
public struct PostgresURL: Sendable, Equatable, CustomStringConvertible {
  /// The text as given, for libpq only.
  public let text: String
  /// Every option it sets except the password, as `key=value` pairs.
  public let redacted: String

  public init(_ text: String) throws(PostgresError) {
    var failure: UnsafeMutablePointer<CChar>?
    guard let options = PQconninfoParse(text, &failure) else {
      let detail = failure.map { Self.withoutValues(String(cString: $0)) } ?? "out of memory"
      if let failure { PQfreemem(failure) }
      throw PostgresError(
        .invalidURL, "the store is not a PostgreSQL URL (postgresql://user@host:port/database): \(detail)")
    }
    defer { PQconninfoFree(options) }
    var shown: [String] = []
    var option = options
    while let keyword = option.pointee.keyword {
      let name = String(cString: keyword)
      if let value = option.pointee.val, name != "password" {
        shown.append("\(name)=\(String(cString: value))")
      }
      option += 1
    }
    self.text = text
    self.redacted = shown.joined(separator: " ")
  }

  public var description: String { redacted }

  /// libpq's message with every quoted fragment that is not an option name blanked: a fragment
  /// may be a piece of the password it could not parse.
  private static func withoutValues(_ message: String) -> String {
    let keywords = knownKeywords()
    let parts = message.split(separator: "\"", omittingEmptySubsequences: false)
    return parts.enumerated().map { index, part in
      index % 2 == 1 && !keywords.contains(String(part)) ? "…" : String(part)
    }.joined(separator: "\"").trimmingSuffixNewlines()
  }

  private static func knownKeywords() -> Set<String> {
    guard let defaults = PQconndefaults() else { return [] }
    defer { PQconninfoFree(defaults) }
    var names: Set<String> = []
    var option = defaults
    while let keyword = option.pointee.keyword {
      names.insert(String(cString: keyword))
      option += 1
    }
    return names
  }
}

extension String {
  fileprivate func trimmingSuffixNewlines() -> String {
    var text = self
    while text.last?.isNewline == true { text.removeLast() }
    return text
  }
}

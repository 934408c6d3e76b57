/// One SQL statement with its `$1`, `$2`… parameters (text format; nil is NULL), to be sent
/// alone (`PostgresConnection.query`) or with others in one round trip (`pipeline`).
public struct PostgresStatement: Sendable, Equatable {
  public var sql: String
  public var parameters: [String?]
  /// Kept prepared on the connection that runs it (parsed and planned once, then only
  /// executed): for the statements of a fixed shape that every commit sends.
  public var prepared: Bool

  public init(_ sql: String, _ parameters: [String?] = [], prepared: Bool = false) {
    self.sql = sql
    self.parameters = parameters
    self.prepared = prepared
  }

  /// `values` as one array parameter (`{"a","b",NULL}`), for a prepared statement that takes a
  /// whole batch's column at once (`unnest($1::text[], ...)`) instead of a VALUES list whose
  /// length, and so whose text, changes with every batch.
  public static func array(_ values: [String?]) -> String {
    let (quote, backslash) = (UInt8(ascii: "\""), UInt8(ascii: "\\"))
    // Built as bytes, not by appending to a String: this runs for every column of every row a
    // commit writes. Every element is quoted, so that no text reads as NULL, a brace or a
    // separator; only a quote and a backslash need a backslash before them, and neither byte
    // occurs inside a longer UTF-8 sequence, so escaping byte by byte keeps the text whole.
    var bytes: [UInt8] = [UInt8(ascii: "{")]
    bytes.reserveCapacity(values.reduce(2) { $0 + ($1?.utf8.count ?? 4) + 3 })
    for (index, value) in values.enumerated() {
      if index > 0 { bytes.append(UInt8(ascii: ",")) }
      guard let value else {
        bytes += "NULL".utf8
        continue
      }
      bytes.append(quote)
      for byte in value.utf8 {
        if byte == quote || byte == backslash { bytes.append(backslash) }
        bytes.append(byte)
      }
      bytes.append(quote)
    }
    bytes.append(UInt8(ascii: "}"))
    return String(decoding: bytes, as: UTF8.self)
  }
}

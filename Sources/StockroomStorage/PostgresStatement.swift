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
    var text = "{"
    for (index, value) in values.enumerated() {
      if index > 0 { text += "," }
      guard let value else {
        text += "NULL"
        continue
      }
      // Every element quoted, so that no text reads as NULL, a brace or a separator; only a
      // quote and a backslash need a backslash before them. Built byte by byte: this runs for
      // every column of every row a commit writes.
      text += "\""
      if value.utf8.contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
        for scalar in value.unicodeScalars {
          if scalar == "\"" || scalar == "\\" { text += "\\" }
          text.unicodeScalars.append(scalar)
        }
      } else {
        text += value
      }
      text += "\""
    }
    return text + "}"
  }
}

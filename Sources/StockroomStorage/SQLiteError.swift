import CSQLite

/// A failed SQLite call: its result code and SQLite's own message.
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
  public var code: Int32
  public var message: String

  public init(code: Int32, message: String) {
    self.code = code
    self.message = message
  }

  /// The file is not a database or is damaged.
  public var isCorrupt: Bool {
    let primary = code & 0xFF
    return primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB
  }

  public var description: String { "\(message) (SQLite error \(code))" }
}

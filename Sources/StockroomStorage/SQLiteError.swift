import CSQLite

/// A failed SQLite call: its result code, SQLite's own message, and the operating system's error
/// number behind it when there was one (a full disk and a failing disk are both "I/O error").
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
  public var code: Int32
  public var message: String
  /// `errno` of the failed system call, or 0.
  public var systemErrno: Int32

  public init(code: Int32, message: String, systemErrno: Int32 = 0) {
    self.code = code
    self.message = message
    self.systemErrno = systemErrno
  }

  public var description: String { "\(message) (SQLite error \(code))" }
}

/// A PostgreSQL error code (SQLSTATE): five characters whose first two name the class.
///
/// Decisions such as "retry" or "the database is unavailable" are made on these codes, never on
/// message text, which PostgreSQL translates.
public struct SQLState: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
  public let rawValue: String

  public init(rawValue: String) { self.rawValue = rawValue }

  public static let uniqueViolation = SQLState(rawValue: "23505")
  public static let serializationFailure = SQLState(rawValue: "40001")
  public static let deadlockDetected = SQLState(rawValue: "40P01")
  public static let undefinedTable = SQLState(rawValue: "42P01")
  public static let adminShutdown = SQLState(rawValue: "57P01")
  public static let crashShutdown = SQLState(rawValue: "57P02")
  public static let cannotConnectNow = SQLState(rawValue: "57P03")

  /// The first two characters: `08` connection exception, `40` transaction rollback, and so on.
  public var errorClass: Substring { rawValue.prefix(2) }

  /// The transaction lost a race (serialization failure or deadlock) and may simply be run again.
  public var isRetryable: Bool { errorClass == "40" }

  /// The server is going away or not taking connections yet: try again later, elsewhere or after
  /// a reconnect; nothing about the request itself was wrong.
  public var isUnavailable: Bool {
    errorClass == "08" || self == .adminShutdown || self == .crashShutdown || self == .cannotConnectNow
  }

  public var description: String { rawValue }
}

/// A failure talking to PostgreSQL, with what kind it is decided from codes, not message text.
///
/// Messages never hold a password: connection strings are shown only in their redacted form.
public struct PostgresError: Error, Sendable, Equatable, CustomStringConvertible {
  public enum Kind: Sendable, Equatable {
    /// The store URL or connection string cannot be used.
    case invalidURL
    /// No connection could be made (server down, refused, wrong password, timed out).
    case connectionFailed
    /// A connection that worked is gone; the statement's outcome is unknown.
    case connectionLost
    /// The server refused the statement.
    case server(SQLState)
  }

  public let kind: Kind
  public let message: String

  public init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  /// The server's code, when the server answered.
  public var sqlState: SQLState? {
    if case .server(let state) = kind { return state }
    return nil
  }

  /// Nothing was wrong with the request: the database cannot be reached or is shutting down.
  public var isUnavailable: Bool {
    switch kind {
    case .connectionFailed, .connectionLost: true
    case .server(let state): state.isUnavailable
    case .invalidURL: false
    }
  }

  public var description: String {
    switch kind {
    case .server(let state): "PostgreSQL error \(state): \(message)"
    default: message
    }
  }
}

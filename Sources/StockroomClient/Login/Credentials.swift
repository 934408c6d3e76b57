import StockroomProtocol

/// The account a session logs in as, kept in memory so a reconnect can log in again without
/// asking.
public struct Credentials: Sendable, Equatable {
  public var name: String
  public var password: Secret

  /// The LOGIN request; both words quoted as needed, so a password with spaces or `=` stays
  /// one positional word.
  public var loginLine: String {
    "LOGIN " + Quoting.quote(name) + " " + Quoting.quote(password.reveal)
  }
}

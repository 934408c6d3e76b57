import StockroomText

/// Why the shop refused a change. Nothing was applied when one is thrown.
public struct ShopError: Error, Sendable, Equatable, CustomStringConvertible {
  public enum Kind: Sendable, Equatable {
    case notFound, shortage, invalid, denied, limit
    /// An account of that name already exists.
    case exists
    /// The shop cannot take changes right now (its store cannot save them).
    case unavailable
    /// The database the shop is kept in cannot be reached; changes wait for it to answer.
    case unreachable
  }

  public var kind: Kind
  public var message: String
  /// For `.shortage`: every stocked item that was short, in the order first needed.
  public var shortages: [Shortage]

  /// REGISTER or USER ADD of a name that has an account.
  public static func nameTaken(_ name: String) -> ShopError {
    ShopError(.exists, "an account named \(Echo.quoted(name)) already exists")
  }

  public init(_ kind: Kind, _ message: String, shortages: [Shortage] = []) {
    self.kind = kind
    self.message = message
    self.shortages = shortages
  }

  public var description: String { message }
}

/// The announcements of committed changes, on a connection of its own that does nothing but
/// listen: a node learns within milliseconds that another node changed the shop.
///
/// Used by one thread at a time, like the connection it holds.
public final class PostgresChangeFeed {
  public let url: PostgresURL
  private var connection: PostgresConnection?

  public init(url: PostgresURL) {
    self.url = url
  }

  /// Whether the feed is listening now; after a loss, announcements may have been missed.
  public var isListening: Bool { connection?.isConnected ?? false }

  /// Connects (again) and listens. Announcements made while the feed was not listening are
  /// lost, so after this the node must read the change log for what it missed.
  public func listen() throws {
    let connection = try self.connection ?? PostgresConnection(url, applicationName: "stockroomd-feed")
    self.connection = connection
    if !connection.isConnected { try connection.reset() }
    try connection.listen(PostgresShopDatabase.changeChannel)
  }

  /// The newest change announced, waiting up to `milliseconds` for one; nil when none came.
  /// Throws when the connection is lost.
  public func newest(waitingUpTo milliseconds: Int32) throws -> Int? {
    guard let connection, connection.isConnected else {
      throw PostgresError(.connectionLost, "the change feed from \(url) is not connected")
    }
    return try connection.notifications(waitingUpTo: milliseconds).compactMap { Int($0.payload) }.max()
  }
}

import StockroomProtocol

/// Who is connected, as the server's `WHO` says: counts for everyone, names only for staff.
public struct BoardPresence: Sendable, Equatable {
  public struct User: Sendable, Equatable {
    public var name: String
    public var role: String
    public var connections: Int
  }

  public var clients: Int
  public var guests: Int
  public var users: Int
  public var watchers: Int
  /// Empty when the server keeps names to staff and this connection is not staff.
  public var named: [User]

  public init(clients: Int, guests: Int, users: Int, watchers: Int, named: [User] = []) {
    self.clients = clients
    self.guests = guests
    self.users = users
    self.watchers = watchers
    self.named = named
  }

  /// Nil for a reply that is not a `WHO` answer.
  public init?(reply: Reply) {
    guard reply.isOK else { return nil }
    let status = reply.statusFields
    guard let clients = status["clients"].flatMap({ Int($0) }) else { return nil }
    self.clients = clients
    guests = status["guests"].flatMap { Int($0) } ?? 0
    users = status["users"].flatMap { Int($0) } ?? 0
    watchers = status["watchers"].flatMap { Int($0) } ?? 0
    named = reply.rows.compactMap { row in
      guard row["kind"] == "user", let name = row.id else { return nil }
      return User(name: name, role: row["role"] ?? "", connections: row["connections"].flatMap { Int($0) } ?? 1)
    }
  }
}

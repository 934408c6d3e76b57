/// A client's order key, which belongs to the user who sent it: the same text from two users
/// names two orders, and nobody learns of another user's keys.
public struct OrderKey: Sendable, Hashable {
  public var user: String
  public var key: String

  public init(user: String, key: String) {
    self.user = user
    self.key = key
  }
}

/// The poster facts of the Paris 1900 Exposition.
public struct Expo: Sendable, Codable, Hashable {
  public var title: String
  public var visitors: Int
  public var location: String
  public var opened: String
  public var closed: String
  public var description: String
}

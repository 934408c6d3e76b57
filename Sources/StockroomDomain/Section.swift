/// A section of the side-dish shop: main dishes, soups, side dishes.
public struct Section: Sendable, Codable, Hashable {
  public var id: String
  public var name: String
  public var aliases: [String]
}

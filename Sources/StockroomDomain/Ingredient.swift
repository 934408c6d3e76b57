/// One line of a juice recipe.
public struct Ingredient: Sendable, Codable, Hashable {
  public var item: String
  public var quantity: Int
}

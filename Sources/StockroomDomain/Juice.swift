/// A juice: never stocked itself, made to order from fruit.
public struct Juice: Sendable, Codable, Hashable {
  public var id: String
  public var name: String
  public var aliases: [String]
  public var recipe: [Ingredient]

  public init(id: String, name: String, aliases: [String] = [], recipe: [Ingredient]) {
    self.id = id
    self.name = name
    self.aliases = aliases
    self.recipe = recipe
  }
}

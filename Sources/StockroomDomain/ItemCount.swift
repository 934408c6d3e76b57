/// An item id with a count: a line of an order or a restock, or stock taken.
public struct ItemCount: Sendable, Hashable, Codable {
  public var item: String
  public var count: Int

  public init(_ item: String, _ count: Int) {
    self.item = item
    self.count = count
  }
}

/// The fields of a product to register.
public struct ProductDraft: Sendable, Equatable, Codable {
  public var name: String
  public var description: String
  public var price: Money
  public var discount: Discount?
  public var stock: Int

  public init(name: String, description: String = "", price: Money, discount: Discount? = nil, stock: Int = 0) {
    self.name = name
    self.description = description
    self.price = price
    self.discount = discount
    self.stock = stock
  }
}

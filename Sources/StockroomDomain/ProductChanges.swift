/// The fields of a product to change; nil leaves a field as it is.
public struct ProductChanges: Sendable, Equatable {
  public var name: String?
  public var description: String?
  public var price: Money?
  /// `.some(nil)` removes the discount.
  public var discount: Discount??

  public init(name: String? = nil, description: String? = nil, price: Money? = nil, discount: Discount?? = nil) {
    self.name = name
    self.description = description
    self.price = price
    self.discount = discount
  }

  public var isEmpty: Bool { name == nil && description == nil && price == nil && discount == nil }
}

/// One line of a placed order.
public struct OrderLine: Sendable, Hashable {
  public enum Kind: String, Sendable {
    case fruit, juice, dish, product
  }

  public var item: String
  public var name: String
  public var kind: Kind
  public var quantity: Int
  /// The price of one after discount, for dishes and products.
  public var unitPrice: Money?

  public init(item: String, name: String, kind: Kind, quantity: Int, unitPrice: Money? = nil) {
    self.item = item
    self.name = name
    self.kind = kind
    self.quantity = quantity
    self.unitPrice = unitPrice
  }

  public var subtotal: Money? { unitPrice.map { $0 * quantity } }
}

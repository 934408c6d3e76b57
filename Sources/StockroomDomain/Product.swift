import Foundation

/// Something a user sells on the open market. Its stock lives in the shop's stock table.
public struct Product: Sendable, Hashable {
  public var id: String
  public var name: String
  public var description: String
  public var price: Money
  public var discount: Discount?
  public var seller: String
  public var created: Date
  public var updated: Date

  public var finalPrice: Money { discount?.apply(to: price) ?? price }

  public init(
    id: String, name: String, description: String, price: Money, discount: Discount?, seller: String, created: Date,
    updated: Date
  ) {
    self.id = id
    self.name = name
    self.description = description
    self.price = price
    self.discount = discount
    self.seller = seller
    self.created = created
    self.updated = updated
  }
}

/// A side dish (banchan) with its own stock and a price in won.
public struct Dish: Sendable, Hashable {
  public var id: String
  public var name: String
  public var aliases: [String]
  public var section: String
  public var description: String
  public var price: Money
  public var discount: Discount?
  public var stock: Int

  public var finalPrice: Money { discount?.apply(to: price) ?? price }
}

extension Dish: Decodable {
  private enum CodingKeys: String, CodingKey {
    case id, name, aliases, section, description, price, discount, stock
  }

  private enum DiscountKeys: String, CodingKey {
    case percent, salePrice
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(String.self, forKey: .id)
    name = try container.decode(String.self, forKey: .name)
    aliases = try container.decodeIfPresent([String].self, forKey: .aliases) ?? []
    section = try container.decode(String.self, forKey: .section)
    description = try container.decode(String.self, forKey: .description)
    price = Money(minorUnits: try container.decode(Int.self, forKey: .price), currency: .krw)
    stock = try container.decode(Int.self, forKey: .stock)
    if container.contains(.discount) {
      let discount = try container.nestedContainer(keyedBy: DiscountKeys.self, forKey: .discount)
      if let percent = try discount.decodeIfPresent(Int.self, forKey: .percent) {
        self.discount = .percent(percent)
      } else if let sale = try discount.decodeIfPresent(Int.self, forKey: .salePrice) {
        self.discount = .salePrice(Money(minorUnits: sale, currency: .krw))
      } else {
        throw DecodingError.dataCorruptedError(
          forKey: .discount, in: container, debugDescription: "a discount needs percent or sale_price")
      }
    } else {
      discount = nil
    }
  }
}

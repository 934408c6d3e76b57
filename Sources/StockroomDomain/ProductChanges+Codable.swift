/// Coded by hand because `discount` is a double optional: synthesized coding writes "leave the
/// discount alone" and "remove the discount" both as null, and a node replaying the change would
/// read the second as the first.
extension ProductChanges: Codable {
  private enum CodingKeys: String, CodingKey {
    case name, description, price, discount, removesDiscount
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      name: try container.decodeIfPresent(String.self, forKey: .name),
      description: try container.decodeIfPresent(String.self, forKey: .description),
      price: try container.decodeIfPresent(Money.self, forKey: .price))
    if try container.decodeIfPresent(Bool.self, forKey: .removesDiscount) == true {
      discount = .some(nil)
    } else if let discount = try container.decodeIfPresent(Discount.self, forKey: .discount) {
      self.discount = .some(discount)
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeIfPresent(name, forKey: .name)
    try container.encodeIfPresent(description, forKey: .description)
    try container.encodeIfPresent(price, forKey: .price)
    switch discount {
    case .none: break
    case .some(.none): try container.encode(true, forKey: .removesDiscount)
    case .some(.some(let discount)): try container.encode(discount, forKey: .discount)
    }
  }
}

import StockroomDomain

/// What a shared-store change left behind, in a few bytes: the counters, the levels of the items
/// it changed, and the price and text of the products it edited. The node that made the change
/// logs it; a node replaying the change compares, and a difference means its cache has diverged
/// (nodes with different catalogues, a bug) and must be loaded again rather than trusted.
///
/// An edit changes no level, so without its product's fields a node whose copy of a product
/// had drifted (another price, another discount) would replay every edit of it as a match.
package enum ShopDigest {
  package static func of(_ shop: borrowing ShopState, after events: [StockEvent], from mutations: [Mutation]) -> String
  {
    let counters = shop.counters
    var text =
      "o\(counters.nextOrderID) p\(counters.nextProductID) d\(counters.nextDiaryID) n\(counters.namesGeneration) m\(counters.ordersMade)"
    for item in Set(events.map(\.item)).sorted() {
      text += " \(item)=\(shop.level(of: item).map { String($0.current) } ?? "-")"
    }
    for id in Set(mutations.compactMap(editedProduct)).sorted() {
      text += " \(id):" + (shop.products[id].map(fields) ?? "-")
    }
    return text
  }

  private static func editedProduct(_ mutation: Mutation) -> String? {
    guard case .editProduct(let id, _, _, _) = mutation else { return nil }
    return ItemNames.key(id)
  }

  /// A product's price, its price after the discount, and a checksum of its name and description
  /// (FNV-1a, 32 bits: a drift detector, not a defence against anyone).
  private static func fields(_ product: Product) -> String {
    var hash: UInt32 = 2_166_136_261
    for byte in product.name.utf8 + [0] + product.description.utf8 {
      hash = (hash ^ UInt32(byte)) &* 16_777_619
    }
    return "\(product.price.minorUnits)/\(product.finalPrice.minorUnits)#\(String(hash, radix: 16))"
  }
}

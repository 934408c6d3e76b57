import StockroomDomain
import StockroomText

/// The phone page's menu as JSON: the juices with the fruit each takes, the side-dish shop's
/// sections with their prices and discounts, and the market's products, each with how many can
/// be ordered now. Names are data here; the page sets them as text.
package enum PhoneMenuEncoder {
  package static func menu(_ shop: ShopState) -> String {
    var sections: [String] = []
    let juices = shop.catalog.juices.map { juice in
      let recipe = juice.recipe.map {
        object([("name", q(shop.displayName(of: $0.item))), ("count", String($0.quantity))])
      }
      // As many as the scarcest fruit makes.
      let makes = juice.recipe.map { (shop.level(of: $0.item)?.current ?? 0) / max(1, $0.quantity) }.min() ?? 0
      return object([
        ("id", q(juice.id)), ("name", q(juice.name)), ("available", String(makes)),
        ("recipe", "[" + recipe.joined(separator: ",") + "]"),
      ])
    }
    if !juices.isEmpty { sections.append(section("juices", "Juices", juices)) }
    for part in shop.catalog.sections {
      let dishes = shop.catalog.dishes.filter { $0.section == part.id }.map { dish in
        priced(dish.id, dish.name, dish.description, dish.price, dish.discount, shop)
      }
      if !dishes.isEmpty { sections.append(section(part.id, part.name, dishes)) }
    }
    let products = shop.productsNewestFirst().reversed().map { product in
      priced(product.id, product.name, product.description, product.price, product.discount, shop)
    }
    if !products.isEmpty { sections.append(section("market", "Market", products)) }
    return object([("sections", "[" + sections.joined(separator: ",") + "]")])
  }

  private static func section(_ id: String, _ name: String, _ items: [String]) -> String {
    object([("id", q(id)), ("name", q(name)), ("items", "[" + items.joined(separator: ",") + "]")])
  }

  /// A dish or product: its price, and its discount and the price after it when it has one.
  private static func priced(
    _ id: String, _ name: String, _ description: String, _ price: Money, _ discount: Discount?, _ shop: ShopState
  ) -> String {
    var fields = [
      ("id", q(id)), ("name", q(name)), ("description", q(description)), ("price", q(price.display)),
      ("available", String(max(0, shop.level(of: id)?.current ?? 0))),
    ]
    if let discount {
      let label =
        switch discount {
        case .percent(let percent): "−\(percent)%"
        case .salePrice: "sale"
        }
      fields += [("discount", q(label)), ("final", q(discount.apply(to: price).display))]
    }
    return object(fields)
  }

  private static func q(_ text: String) -> String { JSONString.quoted(text) }

  private static func object(_ fields: [(String, String)]) -> String {
    "{" + fields.map { "\(q($0.0)):\($0.1)" }.joined(separator: ",") + "}"
  }
}

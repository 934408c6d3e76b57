import Foundation
import StockroomText

/// The market: users' products, listed, changed and removed by their sellers (or staff).
extension ShopState {
  func validateProductText(name: String?, description: String?) throws(ShopError) {
    if let name { try TextRules.check(name, as: limits.productName) }
    if let description { try TextRules.check(description, as: limits.productDescription) }
  }

  mutating func createProduct(seller: String, draft: ProductDraft, at: Date) throws(ShopError) -> Applied {
    // What is wrong with the product itself is said first, whatever the market holds.
    try validateProductText(name: draft.name, description: draft.description)
    try draft.discount?.validate(against: draft.price)
    guard (0...Catalog.maximumStock).contains(draft.stock) else {
      throw ShopError(.invalid, "stock must be 0 to \(Catalog.maximumStock)")
    }
    let cap = limits.products
    switch cap.refusal(held: products.values.count(where: { $0.seller == seller }), used: products.count) {
    case .full: throw ShopError(.limit, "the market holds at most \(cap.total) products")
    case .ownerFull: throw ShopError(.limit, "a seller lists at most \(cap.perOwner) products; delist some first")
    case .reserved:
      throw ShopError(
        .limit,
        "the market is nearly full; its last \(cap.reserve) places are kept for sellers with fewer than \(cap.small)")
    case nil: break
    }
    let id = "p\(counters.nextProductID)"
    counters.nextProductID += 1
    let product = Product(
      id: id, name: draft.name, description: draft.description, price: draft.price, discount: draft.discount,
      seller: seller, created: at, updated: at)
    products[id] = product
    productIDs.append(id)
    nameIndex.add(product)
    counters.namesGeneration += 1
    stock[id] = StockLevel(initial: draft.stock)
    let event = StockEvent(
      item: id, name: product.name, level: draft.stock, change: draft.stock, cause: .listed(user: seller))
    return Applied(outcome: .productSaved(product), events: [event])
  }

  func ownedProduct(_ id: String, by user: String) throws(ShopError) -> Product {
    guard let product = products[ItemNames.key(id)] else { throw ShopError(.notFound, "no product \(Echo.quoted(id))") }
    guard product.seller == user else {
      throw ShopError(.denied, "\(product.id) is sold by \(product.seller), not \(user)")
    }
    return product
  }

  mutating func editProduct(
    id: String, user: String, changes: ProductChanges, at: Date
  ) throws(ShopError) -> Applied {
    var product = try ownedProduct(id, by: user)
    guard !changes.isEmpty else { throw ShopError(.invalid, "nothing to change") }
    try validateProductText(name: changes.name, description: changes.description)
    if let name = changes.name { product.name = name }
    if let description = changes.description { product.description = description }
    if let price = changes.price {
      if price.currency != product.price.currency, case .salePrice = product.discount, changes.discount == nil {
        throw ShopError(
          .invalid, "the sale price is in \(product.price.currency.rawValue); give discount= with the new currency")
      }
      product.price = price
    }
    if let discount = changes.discount { product.discount = discount }
    try product.discount?.validate(against: product.price)
    product.updated = at
    if let old = products[product.id], old.name != product.name {
      nameIndex.remove(old)
      nameIndex.add(product)
      counters.namesGeneration += 1
    }
    products[product.id] = product
    return Applied(outcome: .productSaved(product), events: [])
  }

  mutating func deleteProduct(id: String, user: String, anySeller: Bool) throws(ShopError) -> Applied {
    let product: Product
    if anySeller {
      guard let found = products[ItemNames.key(id)] else { throw ShopError(.notFound, "no product \(Echo.quoted(id))") }
      product = found
    } else {
      product = try ownedProduct(id, by: user)
    }
    products[product.id] = nil
    productIDs.removeAll { $0 == product.id }
    nameIndex.remove(product)
    counters.namesGeneration += 1
    let level = stock.removeValue(forKey: product.id)?.current ?? 0
    let event = StockEvent(item: product.id, name: product.name, level: 0, change: -level, cause: .delisted(user: user))
    return Applied(outcome: .productDeleted(product.id), events: [event])
  }
}

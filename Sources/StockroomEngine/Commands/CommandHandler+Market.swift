import Foundation
import StockroomDomain
import StockroomProtocol
import StockroomText

extension CommandHandler {
  private static func currency(_ options: [OptionKey: String]) throws(ProtocolError) -> Currency? {
    guard let code = options[.currency] else { return nil }
    guard let currency = Currency(code: code) else {
      throw ProtocolError(
        .invalid,
        "currency \(Echo.quoted(code)) is not one of \(Currency.allCases.map(\.rawValue).joined(separator: ", "))")
    }
    return currency
  }

  package func productNew(_ request: Request, session: Session) throws -> ChangeRequest {
    let options = request.options
    let price = try Money.parse(request.required(.price), currency: try Self.currency(options) ?? .krw)
    let discount = try options[.discount].flatMap { text throws(ShopError) in try Discount.parse(text, price: price) }
    let stock =
      try options[.stock].map { text throws(ProtocolError) in
        try Self.integer(text, what: "stock", range: 0...Catalog.maximumStock)
      } ?? 0
    let draft = ProductDraft(
      name: try request.required(.name), description: options[.description] ?? "", price: price, discount: discount,
      stock: stock)
    return ChangeRequest(.createProduct(seller: session.user, draft: draft, at: clock.wallTime())) { applied, _, out in
      savedProduct(applied, out: &out)
    }
  }

  package func productEdit(_ request: Request, session: Session) throws -> ChangeRequest {
    let options = request.options
    let id = request.arguments[0].text
    let current = try shop.read { state throws(ProtocolError) in
      guard let product = state.products[ItemNames.key(id)] else {
        throw ProtocolError(.notFound, "no product \(Echo.quoted(id))")
      }
      return product
    }
    let currency = try Self.currency(options)
    if currency != nil && options[.price] == nil {
      throw ProtocolError(
        .args, "currency= goes with price=, since the amount means something else in another currency")
    }
    var changes = ProductChanges(name: options[.name], description: options[.description])
    if let text = options[.price] {
      changes.price = try Money.parse(text, currency: currency ?? current.price.currency)
    }
    if let text = options[.discount] {
      changes.discount = .some(try Discount.parse(text, price: changes.price ?? current.price))
    }
    return ChangeRequest(.editProduct(id: id, user: session.user, changes: changes, at: clock.wallTime())) {
      applied, _, out in
      savedProduct(applied, out: &out)
    }
  }

  private func savedProduct(_ applied: Applied, out: inout ReplyEncoder) {
    guard case .productSaved(let product) = applied.outcome else { preconditionFailure("product answers saved") }
    let level = shop.read { state in state.level(of: product.id) }
    out.productRow(product, level: level, detail: true)
    out.endLine()
    out.ok(fields: [("product", product.id)])
  }

  package func productDelete(_ request: Request, session: Session, role: Role) -> ChangeRequest {
    let mutation = Mutation.deleteProduct(id: request.arguments[0].text, user: session.user, anySeller: role >= .admin)
    return ChangeRequest(mutation) { applied, _, out in
      guard case .productDeleted(let id) = applied.outcome else { preconditionFailure("delete answers deleted") }
      out.ok(fields: [("deleted", id)])
    }
  }
}

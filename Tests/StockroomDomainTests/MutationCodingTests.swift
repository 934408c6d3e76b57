import Foundation
import StockroomDomain
import Testing

/// Mutations are what a shared store's change log holds, and what other nodes replay: each must
/// come back exactly as it went in.
@Suite(.timeLimit(.minutes(30)))
struct MutationCodingTests {
  private static let at = Date(timeIntervalSince1970: 1_795_000_000.123456)
  private static let price = Money(minorUnits: 3000, currency: .krw)

  static let mutations: [Mutation] = [
    .restock(user: "bob", changes: [ItemCount("banana", 5), ItemCount("kiwi", -2)]),
    .order(user: "minji", lines: [ItemCount("banana_juice", 2)], at: at, key: "k-1"),
    .order(user: "guest", lines: [ItemCount("kiwi", 1)], at: at),
    .createProduct(
      seller: "ann", draft: ProductDraft(name: "떡", description: "쫄깃", price: price, discount: .percent(10), stock: 4),
      at: at),
    .editProduct(id: "p1", user: "ann", changes: ProductChanges(name: "Tteok"), at: at),
    .editProduct(id: "p1", user: "ann", changes: ProductChanges(discount: .some(nil)), at: at),
    .editProduct(
      id: "p1", user: "ann",
      changes: ProductChanges(discount: .some(.salePrice(Money(minorUnits: 2500, currency: .krw)))),
      at: at),
    .deleteProduct(id: "p1", user: "admin", anySeller: true),
    .createDiary(owner: "minji", title: "장보기", body: "딸기\n바나나", at: at),
    .editDiary(id: 3, owner: "minji", title: nil, body: "more", at: at),
    .deleteDiary(id: 3, owner: "minji"),
    .createAccount(
      Account(name: "bob", role: .staff, passwordHash: "$argon2id$x", created: at, updated: at), selfRegistered: false),
    .deleteAccount(name: "bob"),
    .setRole(name: "bob", role: .admin, at: at),
    .setPassword(name: "bob", hash: "$argon2id$y", at: at),
  ]

  @Test("every kind of mutation survives encoding and decoding unchanged")
  func roundTrip() throws {
    let decoded = try JSONDecoder().decode([Mutation].self, from: JSONEncoder().encode(Self.mutations))
    #expect(decoded == Self.mutations)
  }

  @Test("removing a discount and leaving it alone stay different after decoding")
  func discountRemovalIsNotLost() throws {
    let removal = ProductChanges(discount: .some(nil))
    let decoded = try JSONDecoder().decode(ProductChanges.self, from: JSONEncoder().encode(removal))
    #expect(decoded.discount == .some(nil))
    let untouched = try JSONDecoder().decode(ProductChanges.self, from: JSONEncoder().encode(ProductChanges()))
    #expect(untouched.discount == nil)
  }
}

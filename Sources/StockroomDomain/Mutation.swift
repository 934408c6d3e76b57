import Foundation
import StockroomText

/// Every change the shop can undergo, as a value, with the clock already read: replaying the same
/// mutations on the same catalogue gives the same shop, which is what a journal will store.
/// Items may be named by id or alias; `apply` resolves them inside the same atomic step.
public enum Mutation: Sendable, Equatable, Codable {
  /// Positive counts restock; negative ones correct downward after a stocktake.
  case restock(user: String, changes: [ItemCount])
  /// A `key` makes the order exactly-once: the same key again returns the first receipt.
  case order(user: String, lines: [ItemCount], at: Date, key: String? = nil)
  case createProduct(seller: String, draft: ProductDraft, at: Date)
  case editProduct(id: String, user: String, changes: ProductChanges, at: Date)
  /// `anySeller` lets an admin delist a product someone else sells.
  case deleteProduct(id: String, user: String, anySeller: Bool = false)
  case createDiary(owner: String, title: String, body: String, at: Date)
  case editDiary(id: Int, owner: String, title: String?, body: String?, at: Date)
  case deleteDiary(id: Int, owner: String)
  /// `selfRegistered` when the person is making their own account: a name that still owns
  /// data from before accounts existed is then refused, so only an admin can hand it back.
  case createAccount(Account, selfRegistered: Bool)
  case deleteAccount(name: String)
  case setRole(name: String, role: Role, at: Date)
  case setPassword(name: String, hash: String, at: Date)
}

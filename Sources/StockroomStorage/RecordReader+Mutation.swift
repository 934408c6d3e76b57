import Foundation
import StockroomDomain
import StockroomText

/// `MutationRecord`'s fields, read in the order `RecordWriter+Mutation` wrote them. A value no
/// version wrote (a kind, role or currency this server does not know) is damage, reported by
/// its place, never its text.
extension RecordReader {
  mutating func mutation() throws -> Mutation {
    let number = try unsigned()
    guard let kind = MutationRecord.Kind(rawValue: number) else {
      throw damaged("a mutation of kind \(number), which this server does not know")
    }
    switch kind {
    case .restock: return .restock(user: try text(), changes: try itemCounts())
    case .order:
      return .order(user: try text(), lines: try itemCounts(), at: try date(), key: try optionalText())
    case .createProduct:
      let seller = try text()
      let draft = ProductDraft(
        name: try text(), description: try text(), price: try money(), discount: try discount(), stock: try int())
      return .createProduct(seller: seller, draft: draft, at: try date())
    case .editProduct:
      return .editProduct(id: try text(), user: try text(), changes: try productChanges(), at: try date())
    case .deleteProduct: return .deleteProduct(id: try text(), user: try text(), anySeller: try flag())
    case .createDiary: return .createDiary(owner: try text(), title: try text(), body: try text(), at: try date())
    case .editDiary:
      return .editDiary(
        id: try int(), owner: try text(), title: try optionalText(), body: try optionalText(), at: try date())
    case .deleteDiary: return .deleteDiary(id: try int(), owner: try text())
    case .createAccount:
      let account = Account(
        name: try text(), role: try role(), passwordHash: try text(), created: try date(), updated: try date())
      return .createAccount(account, selfRegistered: try flag())
    case .deleteAccount: return .deleteAccount(name: try text())
    case .setRole: return .setRole(name: try text(), role: try role(), at: try date())
    case .setPassword: return .setPassword(name: try text(), hash: try text(), at: try date())
    }
  }

  private mutating func itemCounts() throws -> [ItemCount] {
    var counts: [ItemCount] = []
    for _ in 0..<(try count()) { counts.append(ItemCount(try text(), try int())) }
    return counts
  }

  private mutating func productChanges() throws -> ProductChanges {
    var changes = ProductChanges(name: try optionalText(), description: try optionalText())
    if try flag() { changes.price = try money() }
    switch try unsigned() {
    case 0: break
    case 1: changes.discount = .some(nil)
    case 2: changes.discount = .some(try discount())
    default: throw damaged("a discount change it does not know")
    }
    return changes
  }

  private mutating func money() throws -> Money {
    let minor = try int()
    guard let currency = Currency(rawValue: try text()) else { throw damaged("a currency it does not know") }
    return Money(minorUnits: minor, currency: currency)
  }

  private mutating func discount() throws -> Discount? {
    switch try unsigned() {
    case 0: return nil
    case 1: return .percent(try int())
    case 2: return .salePrice(try money())
    default: throw damaged("a discount it does not know")
    }
  }

  private mutating func role() throws -> Role {
    guard let role = Role(rawValue: try text()) else { throw damaged("a role it does not know") }
    return role
  }
}

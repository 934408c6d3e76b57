import Foundation
import StockroomDomain
import StockroomText

/// `MutationRecord`'s fields, written; `RecordReader+Mutation` reads them in the same order.
extension RecordWriter {
  mutating func mutation(_ mutation: Mutation) {
    switch mutation {
    case .restock(let user, let changes):
      fields(.restock, user)
      itemCounts(changes)
    case .order(let user, let lines, let at, let key):
      fields(.order, user)
      itemCounts(lines)
      date(at)
      optionalText(key)
    case .createProduct(let seller, let draft, let at):
      fields(.createProduct, seller, draft.name, draft.description)
      money(draft.price)
      discount(draft.discount)
      int(draft.stock)
      date(at)
    case .editProduct(let id, let user, let changes, let at):
      fields(.editProduct, id, user)
      productChanges(changes)
      date(at)
    case .deleteProduct(let id, let user, let anySeller):
      fields(.deleteProduct, id, user)
      flag(anySeller)
    case .createDiary(let owner, let title, let body, let at):
      fields(.createDiary, owner, title, body)
      date(at)
    case .editDiary(let id, let owner, let title, let body, let at):
      fields(.editDiary)
      int(id)
      text(owner)
      optionalText(title)
      optionalText(body)
      date(at)
    case .deleteDiary(let id, let owner):
      fields(.deleteDiary)
      int(id)
      text(owner)
    case .createAccount(let account, let selfRegistered):
      fields(.createAccount, account.name, account.role.rawValue, account.passwordHash)
      date(account.created)
      date(account.updated)
      flag(selfRegistered)
    case .deleteAccount(let name): fields(.deleteAccount, name)
    case .setRole(let name, let role, let at):
      fields(.setRole, name, role.rawValue)
      date(at)
    case .setPassword(let name, let hash, let at):
      fields(.setPassword, name, hash)
      date(at)
    }
  }

  /// The kind's number, then `texts`: how every mutation starts.
  private mutating func fields(_ kind: MutationRecord.Kind, _ texts: String...) {
    unsigned(kind.rawValue)
    for value in texts { text(value) }
  }

  private mutating func itemCounts(_ counts: [ItemCount]) {
    unsigned(UInt64(counts.count))
    for count in counts {
      text(count.item)
      int(count.count)
    }
  }

  private mutating func productChanges(_ changes: ProductChanges) {
    optionalText(changes.name)
    optionalText(changes.description)
    flag(changes.price != nil)
    if let price = changes.price { money(price) }
    // Kept, removed, or set: three cases, so a number rather than a flag.
    switch changes.discount {
    case .none: unsigned(0)
    case .some(.none): unsigned(1)
    case .some(.some(let set)):
      unsigned(2)
      discount(set)
    }
  }

  private mutating func money(_ money: Money) {
    int(money.minorUnits)
    text(money.currency.rawValue)
  }

  /// 0 for none, 1 and the percent, 2 and the sale price.
  private mutating func discount(_ discount: Discount?) {
    switch discount {
    case nil: unsigned(0)
    case .percent(let percent)?:
      unsigned(1)
      int(percent)
    case .salePrice(let price)?:
      unsigned(2)
      money(price)
    }
  }
}

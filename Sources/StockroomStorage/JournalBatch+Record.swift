import Foundation
import StockroomDomain

extension JournalBatch {
  /// Adds the rows one applied mutation changed: `stock` is the shop's stock right after it (an
  /// item of its events missing there is gone). The shop's own dictionary, not a list of the
  /// events' levels made for the call: that array was an allocation a change.
  public mutating func record(
    _ applied: Applied, stock levels: [String: StockLevel], counters: ShopCounters, at: Date
  ) {
    count += 1
    for event in applied.events {
      if let level = levels[event.item] {
        stock[event.item] = level
        // Nearly always empty: removing from it would still hash the name (~290 an order).
        if !deletedStock.isEmpty { deletedStock.remove(event.item) }
      } else {
        stock[event.item] = nil
        deletedStock.insert(event.item)
      }
      ledger.append(LedgerEntry(event, at: at))
    }
    switch applied.outcome {
    case .restocked, .reordered: break
    case .ordered(let receipt, let repeated):
      if !repeated {
        orders.append(receipt.order)
        if receipt.key != nil { receipts.append(receipt) }
      }
    case .productSaved(let product): products[product.id] = product
    case .productDeleted(let id):
      products[id] = nil
      deletedProducts.insert(id)
    case .diarySaved(let entry):
      diary[entry.id] = entry
      diaryNumbers[entry.owner] = max(diaryNumbers[entry.owner] ?? 0, entry.number + 1)
    case .diaryDeleted(let id):
      diary[id] = nil
      deletedDiary.insert(id)
    case .accountSaved(let account):
      accounts[account.name] = account
      deletedAccounts.remove(account.name)
    case .accountDeleted(let name):
      accounts[name] = nil
      deletedAccounts.insert(name)
    }
    self.counters = counters
  }
}

import StockroomText

/// RESTOCK and STOCKTAKE corrections: moving stock by hand, all of a request or none of it.
extension ShopState {
  mutating func restock(user: String, changes: [ItemCount]) throws(ShopError) -> Applied {
    var totals: [StockChange] = []
    for change in changes {
      guard change.count != 0, change.count.magnitude <= Catalog.maximumStock else {
        throw ShopError(.invalid, "a stock change must be a whole number other than 0, at most \(Catalog.maximumStock)")
      }
      let ref = try resolveStocked(change.item, allowJuice: false)
      if let index = totals.firstIndex(where: { $0.item == ref.id }) {
        totals[index].change += change.count
      } else {
        totals.append(StockChange(item: ref.id, kind: ref.kind, change: change.count, level: 0))
      }
    }
    for total in totals {
      let level = stock[total.item]!.current
      let after = level + total.change
      guard after >= 0 else {
        throw ShopError(.invalid, "\(total.item) has \(level); correcting by \(total.change) would go below zero")
      }
      guard after <= Catalog.maximumStock else {
        throw ShopError(.invalid, "\(total.item) would hold \(after), over the limit of \(Catalog.maximumStock)")
      }
    }
    var events: [StockEvent] = []
    for index in totals.indices {
      let total = totals[index]
      var level = stock[total.item]!
      if total.change > 0 { level.restocked += total.change } else { level.corrected -= total.change }
      level.current += total.change
      stock[total.item] = level
      totals[index].level = level.current
      // Changes that cancel out within one request move nothing, so nobody is told of them.
      guard total.change != 0 else { continue }
      events.append(
        StockEvent(
          item: total.item, name: displayName(of: total.item), level: level.current, change: total.change,
          cause: total.change > 0 ? .restock(user: user) : .correction(user: user)))
    }
    return Applied(outcome: .restocked(totals), events: events)
  }
}

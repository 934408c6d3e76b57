import Foundation
import StockroomText

/// ORDER: what an order takes from stock, refusing it whole when stock is short, and keyed
/// retries answered with the first answer.
extension ShopState {
  mutating func order(user: String, lines: [ItemCount], at: Date, key: String?) throws(ShopError) -> Applied {
    guard !lines.isEmpty else { throw ShopError(.invalid, "an order needs at least one item") }
    if let key, let earlier = try repeatedOrder(user: user, lines: lines, at: at, key: key) { return earlier }
    guard lines.count <= limits.maximumOrderLines else {
      throw ShopError(.limit, "an order has at most \(limits.maximumOrderLines) lines")
    }
    let (needs, orderLines) = try stockNeeded(for: lines)
    let levels = try take(needs)
    let id = counters.nextOrderID
    counters.nextOrderID += 1
    counters.ordersMade += 1
    var events: [StockEvent] = []
    events.reserveCapacity(needs.count)
    for (need, level) in zip(needs, levels) {
      events.append(
        StockEvent(
          item: need.item, name: displayName(of: need.item), level: level.count, change: -need.count,
          cause: .order(id: id, user: user)))
    }
    let order = Order(id: id, user: user, placed: at, lines: orderLines, taken: needs)
    orders.append(order)
    let receipt = OrderReceipt(order: order, levels: levels, key: key, requested: lines)
    // Each path uses the receipt last in its answer, so an unkeyed order moves it there: kept
    // for the key as well, it was copied (its retains) and the copy destroyed for every order.
    guard let key else { return Applied(outcome: .ordered(receipt, repeated: false), events: events) }
    orderKeys.insert(receipt, key: OrderKey(user: user, key: key))
    return Applied(outcome: .ordered(receipt, repeated: false), events: events)
  }

  /// A keyed order seen before: its receipt again, or the order it became; nil when the key is
  /// new (and may be held).
  mutating func repeatedOrder(
    user: String, lines: [ItemCount], at: Date, key: String
  ) throws(ShopError) -> Applied? {
    guard !key.isEmpty, key.utf8.count <= limits.maximumKeyLength else {
      throw ShopError(.invalid, "an order key is 1 to \(limits.maximumKeyLength) bytes")
    }
    orderKeys.expire(before: at.addingTimeInterval(-limits.orderKeyRetention))
    let orderKey = OrderKey(user: user, key: key)
    switch orderKeys.lookup(orderKey, requested: lines) {
    case .new: break
    case .held(let receipt): return Applied(outcome: .ordered(receipt, repeated: true), events: [])
    case .settled(let id): return Applied(outcome: .reordered(orderKey, orderID: id), events: [])
    case .conflict(let id):
      throw ShopError(.invalid, "key \(Echo.quoted(key)) was already used for order \(id), a different order")
    }
    guard orderKeys.count < limits.maximumOrderKeys else {
      throw ShopError(
        .limit, "\(limits.maximumOrderKeys) order keys are held for retries; keys expire after 24 hours")
    }
    return nil
  }

  /// What `lines` take from stock, item by item (a juice takes its recipe), and the order's lines.
  func stockNeeded(for lines: [ItemCount]) throws(ShopError) -> (needs: [ItemCount], lines: [OrderLine]) {
    var needs: [ItemCount] = []
    func need(_ item: String, _ count: Int) {
      if let index = needs.firstIndex(where: { $0.item == item }) {
        needs[index].count += count
      } else {
        needs.append(ItemCount(item, count))
      }
    }
    var orderLines: [OrderLine] = []
    orderLines.reserveCapacity(lines.count)
    for line in lines {
      guard (1...limits.maximumQuantity).contains(line.count) else {
        throw ShopError(.invalid, "quantity must be a whole number from 1 to \(limits.maximumQuantity)")
      }
      let ref = try resolveStocked(line.item, allowJuice: true)
      switch ref {
      case .juice(let juice):
        for ingredient in juice.recipe { need(ingredient.item, ingredient.quantity * line.count) }
        orderLines.append(OrderLine(item: juice.id, name: juice.name, kind: .juice, quantity: line.count))
      case .fruit(let fruit):
        need(fruit.id, line.count)
        orderLines.append(OrderLine(item: fruit.id, name: fruit.name, kind: .fruit, quantity: line.count))
      case .dish(let dish):
        need(dish.id, line.count)
        orderLines.append(
          OrderLine(item: dish.id, name: dish.name, kind: .dish, quantity: line.count, unitPrice: dish.finalPrice))
      case .product(let id):
        let product = products[id]!
        need(id, line.count)
        orderLines.append(
          OrderLine(item: id, name: product.name, kind: .product, quantity: line.count, unitPrice: product.finalPrice))
      case .section, .exhibit:
        preconditionFailure("resolveStocked returns only stocked items and juices")
      }
    }
    return (needs, orderLines)
  }

  /// Takes `needs` from stock and returns each item's level right after; when the stock cannot
  /// cover them all, puts back what it took and refuses, naming every shortage.
  ///
  /// One look-up of each item: checking every item first and then taking looked each up twice
  /// (~310 instructions an item). Nothing is taken after the first shortage, so what is put back
  /// is the items before it, `levels` of them.
  mutating func take(_ needs: [ItemCount]) throws(ShopError) -> [ItemCount] {
    var levels: [ItemCount] = []
    levels.reserveCapacity(needs.count)
    var shortages: [Shortage] = []
    for need in needs {
      guard let index = stock.index(forKey: need.item) else {
        shortages.append(Shortage(item: need.item, needed: need.count, available: 0))
        continue
      }
      let available = stock.values[index].current
      if need.count > available {
        shortages.append(Shortage(item: need.item, needed: need.count, available: available))
      } else if shortages.isEmpty {
        stock.values[index].taken += need.count
        stock.values[index].current -= need.count
        levels.append(ItemCount(need.item, available - need.count))
      }
    }
    guard !shortages.isEmpty else { return levels }
    for need in needs.prefix(levels.count) {
      let index = stock.index(forKey: need.item)!
      stock.values[index].taken -= need.count
      stock.values[index].current += need.count
    }
    let detail = shortages.map { "\($0.item) needs \($0.needed), has \($0.available)" }.joined(separator: "; ")
    throw ShopError(.shortage, "not enough stock, nothing taken: \(detail)", shortages: shortages)
  }
}

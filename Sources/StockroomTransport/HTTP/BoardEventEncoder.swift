import Foundation
import StockroomDomain
import StockroomEngine
import StockroomText

/// The board's events as JSON, one object each: a WATCH event, the whole board, the figures.
/// Who made a change is left out, as WHO and `! stock` leave it out for a guest, unless the
/// server was told to show names (`--http-names`).
package struct BoardEventEncoder: Sendable {
  package var showsNames: Bool

  package init(showsNames: Bool) { self.showsNames = showsNames }

  /// A `! stock` or `! store` event.
  package func event(_ event: WatchEvent) -> String {
    switch event {
    case .stock(let stock):
      var fields = [
        ("type", q("stock")), ("item", q(stock.item)), ("name", q(stock.name)), ("level", String(stock.level)),
        ("change", String(stock.change)), ("cause", q(stock.cause.name)),
      ]
      if let order = stock.cause.orderID { fields.append(("order", String(order))) }
      if showsNames, !stock.cause.user.isEmpty { fields.append(("user", q(stock.cause.user))) }
      return object(fields)
    case .store(.down(let reason)):
      return object([("type", q("store")), ("state", q("down")), ("reason", q(reason))])
    case .store(.up):
      return object([("type", q("store")), ("state", q("up"))])
    }
  }

  /// How many of the newest orders the board lists: what its column and a phone's screen hold.
  package static let recentOrders = 12

  /// The newest orders, newest first, as they were ordered (each line's display name and
  /// quantity) and what stock they took: a stock event tells only the second (`ORDER
  /// mango_juice 3` takes Mango ×9), and a page opened after an order saw none of its events.
  package func recent(_ shop: ShopState) -> String {
    let orders = (0..<min(Self.recentOrders, shop.orders.count)).map { shop.orders.newest($0) }
    let objects = orders.map { order in
      let lines = order.lines.map {
        object([("item", q($0.item)), ("name", q($0.name)), ("count", String($0.quantity))])
      }
      let took = order.taken.map {
        object([("item", q($0.item)), ("name", q(shop.displayName(of: $0.item))), ("count", String($0.count))])
      }
      var fields = [
        ("id", String(order.id)), ("placed", String(Int64((order.placed.timeIntervalSince1970 * 1000).rounded()))),
        ("lines", "[" + lines.joined(separator: ",") + "]"), ("took", "[" + took.joined(separator: ",") + "]"),
      ]
      if showsNames, !order.user.isEmpty { fields.append(("user", q(order.user))) }
      return object(fields)
    }
    return "[" + objects.joined(separator: ",") + "]"
  }

  /// Every stocked item with its level and starting level, the sections, and the store's
  /// state: what a stream starts with (`snapshot`), or starts again with after a reconnect
  /// (`resync`, in place of the events it missed). `stats` carries the recent orders.
  package func board(_ shop: ShopState, resync: Bool, store: BoardStoreState, stats: String) -> String {
    var items: [String] = []
    func add(_ id: String, _ name: String, _ kind: String, _ section: String?) {
      guard let level = shop.level(of: id) else { return }
      var fields = [
        ("id", q(id)), ("name", q(name)), ("kind", q(kind)), ("level", String(level.current)),
        ("initial", String(level.initial)),
      ]
      if let section { fields.append(("section", q(section))) }
      items.append(object(fields))
    }
    for fruit in shop.catalog.fruits { add(fruit.id, fruit.name, "fruit", nil) }
    for dish in shop.catalog.dishes { add(dish.id, dish.name, "dish", dish.section) }
    for product in shop.productsNewestFirst().reversed() { add(product.id, product.name, "product", nil) }
    let sections = shop.catalog.sections.map { object([("id", q($0.id)), ("name", q($0.name))]) }
    var fields = [
      ("type", q(resync ? "resync" : "snapshot")), ("items", "[" + items.joined(separator: ",") + "]"),
      ("sections", "[" + sections.joined(separator: ",") + "]"), ("store", q(store.word)), ("stats", stats),
    ]
    if let reason = store.reason { fields.append(("reason", q(reason))) }
    return object(fields)
  }

  /// The figures a `stats` event carries: clients on the shop's port, orders taken so far (the
  /// page turns two of these into orders per second) and the newest of them, watchers, and the
  /// store's state (a store turned read-only sends no event of its own, so the page learns it
  /// here). The page counts the orders it sees after `order`: one whose events come after the
  /// event that counted it is not counted twice. `recent` (from `recent(_:)`) lists the newest
  /// orders as ordered, which no stock event says.
  package func stats(
    connections: Int, orders: Int, newestOrder: Int, watchers: Int, store: BoardStoreState, recent: String
  ) -> String {
    var fields = [
      ("type", q("stats")), ("connections", String(connections)), ("orders", String(orders)),
      ("order", String(newestOrder)), ("watchers", String(watchers)), ("store", q(store.word)),
      ("recent", recent),
    ]
    if let reason = store.reason { fields.append(("reason", q(reason))) }
    return object(fields)
  }

  private func q(_ text: String) -> String { JSONString.quoted(text) }

  private func object(_ fields: [(String, String)]) -> String {
    "{" + fields.map { "\(q($0.0)):\($0.1)" }.joined(separator: ",") + "}"
  }
}

import Foundation
import StockroomDomain
import StockroomProtocol

/// How shop things are written as data lines. Every row carries `kind=` so a client can render
/// it without knowing which command produced it.
extension ReplyEncoder {
  /// A change of stock as a watcher sees it; who made it is shown to staff alone.
  package mutating func stockEvent(_ event: StockEvent, showUser: Bool) {
    beginEvent("stock")
    field("item", event.item)
    field("name", event.name)
    field("level", event.level)
    field("change", CommandHandler.signed(event.change))
    field("cause", event.cause.name)
    if let order = event.cause.orderID { field("order", order) }
    if showUser, !event.cause.user.isEmpty { field("user", event.cause.user) }
    endLine()
  }

  package mutating func watchEvent(_ event: WatchEvent, showUser: Bool) {
    switch event {
    case .stock(let stock): stockEvent(stock, showUser: showUser)
    case .store(.down(let reason)):
      beginEvent("store")
      field("state", "down")
      field("reason", reason)
      endLine()
    case .store(.up):
      beginEvent("store")
      field("state", "up")
      endLine()
    }
  }

  package mutating func aliases(_ aliases: [String]) {
    if !aliases.isEmpty { field("aliases", aliases.joined(separator: ",")) }
  }

  package mutating func ledger(_ level: StockLevel) {
    field("stock", level.current)
    field("initial", level.initial)
    field("restocked", level.restocked)
    field("corrected", level.corrected)
    field("taken", level.taken)
  }

  /// A level in list form: the level and the starting level a client draws it against.
  package mutating func listLevel(_ level: StockLevel) {
    field("stock", level.current)
    field("initial", level.initial)
  }

  package mutating func price(_ price: Money, discount: Discount?) {
    field("price", price.plain)
    field("currency", price.currency.rawValue)
    switch discount {
    case .percent(let percent)?: field("discount", "\(percent)%")
    case .salePrice(let sale)?: field("sale_price", sale.plain)
    case nil: break
    }
    let final = discount?.apply(to: price) ?? price
    field("final_price", final.plain)
    field("price_text", final.display)
    if discount != nil { field("regular_price_text", price.display) }
  }

  package static func recipeText(_ juice: Juice) -> String {
    juice.recipe.map { "\($0.quantity) \($0.item)" }.joined(separator: " + ")
  }

  package mutating func fruitRow(_ fruit: Fruit, level: StockLevel?, detail: Bool) {
    beginRow(fruit.id)
    kind(.fruit)
    field("name", fruit.name)
    aliases(fruit.aliases)
    if let level {
      if detail { ledger(level) } else { listLevel(level) }
    }
  }

  package mutating func juiceRow(_ juice: Juice, canMake: Int) {
    beginRow(juice.id)
    kind(.juice)
    field("name", juice.name)
    aliases(juice.aliases)
    field("recipe", Self.recipeText(juice))
    field("can_make", canMake)
  }

  package mutating func dishRow(_ dish: Dish, level: StockLevel?, detail: Bool) {
    beginRow(dish.id)
    kind(.dish)
    field("name", dish.name)
    field("section", dish.section)
    aliases(dish.aliases)
    price(dish.price, discount: dish.discount)
    if let level {
      if detail { ledger(level) } else { listLevel(level) }
    }
    field("description", dish.description)
  }

  package mutating func productRow(_ product: Product, level: StockLevel?, detail: Bool) {
    beginRow(product.id)
    kind(.product)
    field("name", product.name)
    price(product.price, discount: product.discount)
    if let level {
      if detail { ledger(level) } else { listLevel(level) }
    }
    field("seller", product.seller)
    if !product.description.isEmpty || detail { field("description", product.description) }
    if detail {
      field("created", CommandHandler.timestamp(product.created))
      field("updated", CommandHandler.timestamp(product.updated))
    }
  }

  package mutating func sectionRow(_ section: Section, count: Int) {
    beginRow(section.id)
    kind(.section)
    field("name", section.name)
    aliases(section.aliases)
    field("count", count)
  }

  package mutating func exhibitRow(_ exhibit: Exhibit, detail: Bool) {
    beginRow(exhibit.id)
    kind(.exhibit)
    field("name", exhibit.name)
    aliases(exhibit.aliases)
    field("summary", exhibit.summary)
    if detail { field("description", exhibit.description) }
  }

  package mutating func diaryRow(_ entry: DiaryEntry, detail: Bool) {
    beginRow(String(entry.number))
    kind(.diary)
    field("title", entry.title)
    if detail {
      field("body", entry.body)
      field("owner", entry.owner)
    } else {
      field("preview", entry.preview())
    }
    field("created", CommandHandler.timestamp(entry.created))
    field("updated", CommandHandler.timestamp(entry.updated))
  }

  package mutating func orderRow(_ order: Order) {
    beginRow(String(order.id))
    kind(.order)
    field("user", order.user)
    field("placed", CommandHandler.timestamp(order.placed))
    field("items", order.lines.map { "\($0.quantity) \($0.item)" }.joined(separator: ", "))
    for total in order.totals {
      field(named: "total_\(total.currency.rawValue.lowercased())", total.plain)
    }
  }

  /// `total_krw=28800 total_usd=12.50 total_text="₩28,800 + $12.50"` for an order's status line.
  package static func totalFields(_ totals: [Money]) -> [(String, String)] {
    guard !totals.isEmpty else { return [] }
    return totals.map { ("total_\($0.currency.rawValue.lowercased())", $0.plain) }
      + [("total_text", totals.map(\.display).joined(separator: " + "))]
  }
}

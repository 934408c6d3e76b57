import Foundation
import StockroomDomain
import StockroomProtocol
import StockroomText

extension CommandHandler {
  /// The categories LIST knows, with the words that name them.
  package enum Category: String, CaseIterable {
    case fruits, juices, sections, dishes, products, exhibits, diary, orders

    package init?(word: String) {
      let key = word.lowercased()
      if let exact = Category(rawValue: key) {
        self = exact
      } else if let singular = Category.allCases.first(where: { $0.singular == key }) {
        self = singular
      } else {
        return nil
      }
    }

    package var singular: String {
      switch self {
      case .fruits: "fruit"
      case .juices: "juice"
      case .sections: "section"
      case .dishes: "dish"
      case .products: "product"
      case .exhibits: "exhibit"
      case .diary: "diary"
      case .orders: "order"
      }
    }
  }

  package func list(_ request: Request, session: Session, role: Role, out: inout ReplyEncoder) throws -> ReplyWait? {
    guard let word = request.arguments.first?.text else {
      let account = session.account
      guard account != nil, role < .staff else {
        try listCategories(account: account, role: role, out: &out)
        return nil
      }
      // A customer's own orders are counted in the database.
      return try reading(for: session, out: &out) { out in try listCategories(account: account, role: role, out: &out) }
    }
    return try list(word, request, session: session, role: role, out: &out)
  }

  private func listCategories(account: String?, role: Role, out: inout ReplyEncoder) throws {
    var counts = shop.read { state in
      [
        (Category.fruits, state.catalog.fruits.count), (.juices, state.catalog.juices.count),
        (.sections, state.catalog.sections.count), (.dishes, state.catalog.dishes.count),
        (.products, state.products.count), (.exhibits, state.catalog.exhibits.count),
      ]
    }
    // What is personal is counted for its owner only; a guest has none of it.
    if let account {
      counts.append((.diary, shop.read { $0.diaryCount(of: account) }))
      let orders =
        role >= .staff
        ? shop.read { shop.listedOrders($0) } : try shop.orders(of: account, Paging(page: 1, size: 1)).total
      counts.append((.orders, orders))
    }
    for (category, count) in counts {
      out.beginRow(category.rawValue)
      out.kind(.category)
      out.field("count", count)
      out.endLine()
    }
    out.ok("\(counts.count) categories; LIST <category> for one")
  }

  private func list(_ word: String, _ request: Request, session: Session, role: Role, out: inout ReplyEncoder) throws
    -> ReplyWait?
  {
    guard let category = Category(word: word) else {
      let names = Category.allCases.map(\.rawValue)
      throw ProtocolError(
        .notFound,
        "unknown category \(Echo.quoted(word)); expected \(names.joined(separator: ", "))"
          + NameSuggestion.didYouMean(word, among: names))
    }
    if request.arguments.count > 1 && category != .dishes {
      throw ProtocolError(.args, "only LIST dishes takes a section")
    }
    let paging = try Paging(page: request.options[.page], size: request.options[.size])
    switch category {
    case .fruits:
      let rows = shop.read { state in state.catalog.fruits.map { ($0, state.level(of: $0.id)) } }
      let page = paging.slice(rows)
      for (fruit, level) in page.items {
        out.fruitRow(fruit, level: level, detail: false)
        out.endLine()
      }
      try Self.pageFooter(page, out: &out)
    case .juices:
      let page = paging.slice(shop.read { state in state.catalog.juices.map { ($0, state.canMake($0)) } })
      for (juice, canMake) in page.items {
        out.juiceRow(juice, canMake: canMake)
        out.endLine()
      }
      try Self.pageFooter(page, out: &out)
    case .sections:
      let page = paging.slice(
        shop.read { state in state.catalog.sections.map { ($0, state.dishes(in: $0.id).count) } })
      for (section, count) in page.items {
        out.sectionRow(section, count: count)
        out.endLine()
      }
      try Self.pageFooter(page, out: &out)
    case .dishes:
      try listDishes(section: request.arguments.dropFirst().first?.text, paging: paging, out: &out)
    case .products:
      try listProducts(paging, out: &out)
    case .exhibits:
      let page = paging.slice(shop.read { state in state.catalog.exhibits })
      for exhibit in page.items {
        out.exhibitRow(exhibit, detail: false)
        out.endLine()
      }
      try Self.pageFooter(page, out: &out)
    case .diary:
      try listDiary(paging, session: session, out: &out)
    case .orders:
      let user = session.user
      return try reading(for: session, out: &out) { out in
        // Staff see every order; anyone else their own.
        let page = role >= .staff ? try shop.orders(paging) : try shop.orders(of: user, paging)
        for order in page.items {
          out.orderRow(order)
          out.endLine()
        }
        try Self.pageFooter(page, out: &out)
      }
    }
    return nil
  }

  package func listProducts(_ paging: Paging, out: inout ReplyEncoder) throws(ProtocolError) {
    let page = paging.slice(shop.read { state in state.productsNewestFirst().map { ($0, state.level(of: $0.id)) } })
    for (product, level) in page.items {
      out.productRow(product, level: level, detail: false)
      out.endLine()
    }
    try Self.pageFooter(page, out: &out)
  }

  /// Dishes grouped by section: a section row (with its count) before the first of its dishes
  /// on the page.
  private func listDishes(section word: String?, paging: Paging, out: inout ReplyEncoder) throws {
    let (sections, dishes) = try shop.read { state throws(ProtocolError) in
      var sections = state.catalog.sections
      if let word {
        guard case .section(let section) = try? state.resolve(word) else {
          let names = state.catalog.sections.map(\.id).joined(separator: ", ")
          throw ProtocolError(.notFound, "no section \(Echo.quoted(word)); sections are \(names)")
        }
        sections = [section]
      }
      let dishes = sections.flatMap { section in state.dishes(in: section.id).map { ($0, state.level(of: $0.id)) } }
      return (sections.map { ($0, state.dishes(in: $0.id).count) }, dishes)
    }
    let page = paging.slice(dishes)
    var shown: Set<String> = []
    for (dish, level) in page.items {
      if shown.insert(dish.section).inserted, let (section, count) = sections.first(where: { $0.0.id == dish.section })
      {
        out.sectionRow(section, count: count)
        out.endLine()
      }
      out.dishRow(dish, level: level, detail: false)
      out.endLine()
    }
    try Self.pageFooter(page, out: &out)
  }

  package func show(_ request: Request, out: inout ReplyEncoder) throws {
    let word = request.arguments[0].text
    // The reply is written inside the lock so it shows one consistent moment.
    let bytes = try shop.read { state throws(ShopError) in
      var out = ReplyEncoder()
      let ref = try state.resolve(word)
      switch ref {
      case .fruit(let fruit):
        out.fruitRow(fruit, level: state.level(of: fruit.id), detail: true)
        let users = state.catalog.juices.filter { $0.recipe.contains { $0.item == fruit.id } }.map(\.id)
        if !users.isEmpty { out.field("used_in", users.joined(separator: " ")) }
        out.endLine()
      case .juice(let juice):
        out.juiceRow(juice, canMake: state.canMake(juice))
        out.endLine()
        for ingredient in juice.recipe {
          let level = state.level(of: ingredient.item)?.current ?? 0
          out.beginRow(ingredient.item)
          out.kind(.ingredient)
          out.field("quantity", ingredient.quantity)
          out.field("stock", level)
          out.field("enough", level >= ingredient.quantity)
          out.endLine()
        }
      case .dish(let dish):
        out.dishRow(dish, level: state.level(of: dish.id), detail: true)
        out.endLine()
      case .product(let id):
        out.productRow(state.products[id]!, level: state.level(of: id), detail: true)
        out.endLine()
      case .section(let section):
        let dishes = state.dishes(in: section.id)
        out.sectionRow(section, count: dishes.count)
        out.endLine()
        for dish in dishes {
          out.dishRow(dish, level: state.level(of: dish.id), detail: false)
          out.endLine()
        }
      case .exhibit(let exhibit):
        out.exhibitRow(exhibit, detail: true)
        out.endLine()
      }
      out.ok(ref.id)
      return out.bytes
    }
    out.bytes.append(contentsOf: bytes)
  }

  package func names(out: inout ReplyEncoder) {
    let bytes = shop.read { state in
      var out = ReplyEncoder(capacity: 4096)
      func row(_ id: String, _ kind: RowKind, _ name: String, _ aliases: [String]) {
        out.beginRow(id)
        out.kind(kind)
        out.field("name", name)
        out.aliases(aliases)
        out.endLine()
      }
      let catalog = state.catalog
      for fruit in catalog.fruits { row(fruit.id, .fruit, fruit.name, fruit.aliases) }
      for juice in catalog.juices { row(juice.id, .juice, juice.name, juice.aliases) }
      for section in catalog.sections { row(section.id, .section, section.name, section.aliases) }
      for dish in catalog.dishes { row(dish.id, .dish, dish.name, dish.aliases) }
      for exhibit in catalog.exhibits { row(exhibit.id, .exhibit, exhibit.name, exhibit.aliases) }
      for id in state.productIDs { row(id, .product, state.displayName(of: id), []) }
      let count =
        catalog.fruits.count + catalog.juices.count + catalog.sections.count + catalog.dishes.count
        + catalog.exhibits.count + state.productIDs.count
      out.ok(fields: [("count", String(count)), ("generation", String(state.namesGeneration))])
      return out.bytes
    }
    out.bytes.append(contentsOf: bytes)
  }

  package func expo(out: inout ReplyEncoder) {
    let (expo, exhibits) = shop.read { state in (state.catalog.expo, state.catalog.exhibits.count) }
    out.beginRow("expo")
    out.kind(.expo)
    out.field("title", expo.title)
    out.field("visitors", expo.visitors)
    out.field("visitors_text", NumberText.grouped(expo.visitors))
    out.field("location", expo.location)
    out.field("opened", expo.opened)
    out.field("closed", expo.closed)
    out.field("exhibits", exhibits)
    out.field("description", expo.description)
    out.endLine()
    out.ok("LIST exhibits for the exhibits")
  }

  /// One STOCK row's numbers, read under the shop's lock and written after it.
  private typealias StockFigures = (id: String, kind: RowKind, isJuice: Bool, count: Int, initial: Int)

  package func stock(_ request: Request, out: inout ReplyEncoder) throws {
    let maximum = shop.limits.maximumStockNames
    guard request.arguments.count <= maximum else {
      throw ProtocolError(.limit, "STOCK names at most \(maximum) items; STOCK alone lists every one")
    }
    // Only the numbers are read under the lock; the reply is written after it is released.
    if request.arguments.count == 1 {
      // One item, the common case: its numbers come back as one value, with no array for them.
      let name = request.arguments[0].text
      let figures = try shop.read { state throws(ShopError) in
        Self.stockFigures(try state.resolveStocked(name, allowJuice: true), in: state)
      }
      Self.writeStockRow(figures, out: &out)
      out.ok(count: 1, "item")
      return
    }
    let levels = try shop.read { state throws(ShopError) in
      var refs: [ItemRef] = []
      if request.arguments.isEmpty {
        refs =
          state.catalog.fruits.map(ItemRef.fruit) + state.catalog.dishes.map(ItemRef.dish)
          + state.productIDs.map(ItemRef.product)
      } else {
        for word in request.arguments { refs.append(try state.resolveStocked(word.text, allowJuice: true)) }
      }
      return refs.map { Self.stockFigures($0, in: state) }
    }
    for level in levels { Self.writeStockRow(level, out: &out) }
    out.ok(count: levels.count, levels.count == 1 ? "item" : "items")
  }

  private static func stockFigures(_ ref: ItemRef, in state: borrowing ShopState) -> StockFigures {
    if case .juice(let juice) = ref { return (ref.id, RowKind(ref.kind), true, state.canMake(juice), 0) }
    let level = state.level(of: ref.id)
    return (ref.id, RowKind(ref.kind), false, level?.current ?? 0, level?.initial ?? 0)
  }

  private static func writeStockRow(_ level: StockFigures, out: inout ReplyEncoder) {
    out.beginRow(level.id)
    out.kind(level.kind)
    out.field(level.isJuice ? "can_make" : "stock", level.count)
    // What a client draws the level against, the same in every view (Protocol.md, STOCK).
    if !level.isJuice { out.field("initial", level.initial) }
    out.endLine()
  }

  package func stocktake(_ request: Request, session: Session, out: inout ReplyEncoder) throws -> ReplyWait? {
    let paging = try Paging(page: request.options[.page], size: request.options[.size])
    let (id, kind, level) = try shop.read { state throws(ShopError) in
      let ref = try state.resolveStocked(request.arguments[0].text, allowJuice: false)
      return (ref.id, RowKind(ref.kind), state.level(of: ref.id)!)
    }
    return try reading(for: session, out: &out) { out in
      let (entries, total) = try shop.ledger(of: id, paging: paging)
      out.beginRow(id)
      out.kind(kind)
      out.ledger(level)
      out.field("balances", level.balances)
      out.endLine()
      for entry in entries {
        out.beginRow(String(entry.sequence))
        out.kind(.ledger)
        out.field("item", entry.item)
        out.field("change", Self.signed(entry.change))
        out.field("cause", entry.cause)
        if let order = entry.orderID { out.field("order", order) }
        out.field("user", entry.user)
        out.field("at", Self.timestamp(entry.at))
        out.endLine()
      }
      try Self.pageFooter(Page(items: entries, paging: paging, total: total), out: &out)
    }
  }

  package func add(_ request: Request, session: Session) throws -> ChangeRequest {
    let words = request.arguments
    guard words.count.isMultiple(of: 2) else {
      throw ProtocolError(.args, "ADD takes pairs of <item> <n>, e.g. ADD banana 5 kiwi 2")
    }
    var changes: [ItemCount] = []
    for pair in stride(from: 0, to: words.count, by: 2) {
      let item = words[pair]
      if Self.looksNumeric(item) {
        throw ProtocolError(
          .invalid, "expected an item name, got \(Echo.quoted(item.text)); ADD takes pairs of <item> <n>")
      }
      let count = try Self.integer(
        words[pair + 1].text, what: "stock change", range: -Catalog.maximumStock...Catalog.maximumStock)
      guard count != 0 else { throw ProtocolError(.invalid, "a stock change of 0 changes nothing") }
      changes.append(ItemCount(item.text, count))
    }
    return ChangeRequest(.restock(user: session.user, changes: changes)) { applied, _, out in
      guard case .restocked(let changes) = applied.outcome else { preconditionFailure("restock answers restocked") }
      for change in changes {
        out.beginRow(change.item)
        out.kind(RowKind(change.kind))
        out.field("stock", change.level)
        out.field("change", Self.signed(change.change))
        out.endLine()
      }
      out.ok("restocked \(changes.count) item\(changes.count == 1 ? "" : "s")")
    }
  }

  package func order(_ request: Request, session: Session) throws -> ChangeRequest {
    var lines: [ItemCount] = []
    let words = request.arguments
    var index = 0
    while index < words.count {
      let item = words[index]
      if Self.looksNumeric(item) {
        throw ProtocolError(
          .invalid, "expected an item name, got \(Echo.quoted(item.text)); quantities follow the item")
      }
      var quantity = 1
      if index + 1 < words.count, Self.looksNumeric(words[index + 1]) {
        quantity = try Self.integer(
          words[index + 1].text, what: "quantity", range: 1...shop.limits.maximumQuantity)
        index += 1
      }
      lines.append(ItemCount(item.text, quantity))
      index += 1
    }
    let key = request.options[.key]
    if let key { try TextRules.check(key, as: shop.limits.orderKey) }
    if let orderRate, let source = session.source,
      let wait = orderRate.take(lines.count, from: source, now: clock.now())
    {
      throw ProtocolError(
        .limit,
        "too many orders from your address: \(orderRate.perSecond) lines a second at most; try again in \(wait) s")
    }
    // The answer holds the shop alone, not the whole handler: one reference, which Swift
    // passes as the closure's context instead of allocating one per order.
    return ChangeRequest(.order(user: session.user, lines: lines, at: clock.wallTime(), key: key)) {
      [shop] applied, _, out in
      try Self.answerOrder(applied, shop: shop, out: &out)
    }
  }

  private static func answerOrder(_ applied: Applied, shop: Shop, out: inout ReplyEncoder) throws {
    let receipt: OrderReceipt
    switch applied.outcome {
    case .ordered(let held, _): receipt = held
    // Only on the history pool (`change` sends it there): a shared store's writer reads the
    // receipt itself and answers `.ordered(receipt, repeated: true)`.
    case .reordered(let key, let id): receipt = try shop.receipt(of: key, orderID: id)
    default: preconditionFailure("order answers ordered")
    }
    // Written from the receipt alone, so a retried keyed order answers exactly the same.
    let order = receipt.order
    for line in order.lines {
      out.beginRow(line.item)
      out.kind(RowKind(line.kind))
      out.field("quantity", line.quantity)
      if let unit = line.unitPrice, let subtotal = line.subtotal {
        out.field("unit_price", unit.plain)
        out.field("currency", unit.currency.rawValue)
        out.field("subtotal", subtotal.plain)
      }
      out.endLine()
    }
    for (taken, level) in zip(order.taken, receipt.levels) {
      out.beginRow(taken.item)
      out.kind(.taken)
      out.field("quantity", taken.count)
      out.field("stock", level.count)
      out.endLine()
    }
    // Catalogue items have no price: the usual reply is the order's number alone.
    let totals = order.totals
    guard !totals.isEmpty else { return out.ok(field: "order", order.id) }
    out.ok(fields: [("order", String(order.id))] + ReplyEncoder.totalFields(totals))
  }
}

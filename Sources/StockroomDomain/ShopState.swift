import Foundation
import StockroomText

/// The whole shop as a plain value: catalogue, stock, products and orders, with the diary
/// (`Diary`) and the accounts (`AccountBook`) as parts of their own.
///
/// All changes go through `apply(_:)`, which either applies a mutation completely or throws
/// and leaves the state untouched. No I/O happens here.
public struct ShopState: Sendable {
  public let catalog: Catalog
  public let limits: ShopLimits
  public private(set) var stock: [String: StockLevel] = [:]
  public private(set) var products: [String: Product] = [:]
  /// Product ids, oldest first.
  public private(set) var productIDs: [String] = []
  /// Every user's diary.
  public private(set) var diaryBook: Diary
  public private(set) var accountBook: AccountBook
  /// Diary entries by store id.
  public var diary: [Int: DiaryEntry] { diaryBook.entries }
  /// Each owner's next diary number.
  public var diaryNumbers: [String: Int] { diaryBook.nextNumbers }
  public var accounts: [String: Account] { accountBook.accounts }
  public private(set) var orders: OrderHistory
  public private(set) var counters = ShopCounters()
  /// Keyed orders, for retries.
  private var orderKeys = OrderKeys()

  public var ordersMade: Int { counters.ordersMade }
  /// Grows whenever the set of names changes (a product listed or delisted), so clients know
  /// when their completion list is stale.
  public var namesGeneration: Int { counters.namesGeneration }
  /// Catalogue ids and aliases by `ItemNames.key`.
  private let names: [String: ItemRef]
  /// Catalogue display names by `ItemNames.key`, each with every item of that name; a name that
  /// is also an id or alias is left out, since the id or alias answers for it.
  private let displayNames: [String: [ItemRef]]
  /// Product names by `ItemNames.key`, each with the ids of the products of that name; kept
  /// with the products, so it holds no more than they do.
  private var productNames: [String: [String]] = [:]

  public init(catalog: Catalog, limits: ShopLimits = ShopLimits()) {
    self.catalog = catalog
    self.limits = limits
    self.orders = OrderHistory(capacity: limits.orderHistory)
    self.diaryBook = Diary(limits: limits)
    self.accountBook = AccountBook(limits: limits)
    var names: [String: ItemRef] = [:]
    var displayNames: [String: [ItemRef]] = [:]
    func index(_ ref: ItemRef, _ id: String, _ aliases: [String]) {
      names[ItemNames.key(id)] = ref
      for alias in aliases { names[ItemNames.key(alias)] = ref }
      if let name = ref.catalogName { displayNames[ItemNames.key(name), default: []].append(ref) }
    }
    for fruit in catalog.fruits {
      index(.fruit(fruit), fruit.id, fruit.aliases)
      stock[fruit.id] = StockLevel(initial: catalog.initialStock)
    }
    for juice in catalog.juices { index(.juice(juice), juice.id, juice.aliases) }
    for section in catalog.sections { index(.section(section), section.id, section.aliases) }
    for dish in catalog.dishes {
      index(.dish(dish), dish.id, dish.aliases)
      stock[dish.id] = StockLevel(initial: dish.stock)
    }
    for exhibit in catalog.exhibits { index(.exhibit(exhibit), exhibit.id, exhibit.aliases) }
    self.names = names
    // Ids and aliases are unique across the catalogue (Catalog.validate); a display name never
    // shadows one, and a name two items share is kept, to say which ids it could mean.
    self.displayNames = displayNames.filter { names[$0.key] == nil }
  }

  /// The shop as a store saved it, on the catalogue as loaded now. Items the catalogue gained
  /// since start at their catalogue stock; items it kept keep their saved levels.
  public init(catalog: Catalog, limits: ShopLimits = ShopLimits(), restoring snapshot: ShopSnapshot) {
    self.init(catalog: catalog, limits: limits)
    for (item, level) in snapshot.stock { stock[item] = level }
    for product in snapshot.products {
      products[product.id] = product
      productIDs.append(product.id)
      indexName(of: product)
    }
    diaryBook.restore(snapshot.diary, nextNumbers: snapshot.diaryNumbers)
    accountBook.restore(snapshot.accounts)
    for order in snapshot.recentOrders { orders.append(order) }
    for record in snapshot.orderKeys { orderKeys.restore(record) }
    counters = snapshot.counters
  }

  /// Catalogue items that have no stock row in `snapshot`, for a store to add.
  public static func newItems(in catalog: Catalog, comparedWith snapshot: ShopSnapshot) -> [String] {
    (catalog.fruits.map(\.id) + catalog.dishes.map(\.id)).filter { snapshot.stock[$0] == nil }
  }

  // MARK: Reading

  /// What `word` names, first match wins: an id or alias of anything in the catalogue, a product
  /// id, a catalogue display name, then a product name. A name that several items share names
  /// none of them: NOTFOUND lists their ids.
  public func resolve(_ word: String) throws(ShopError) -> ItemRef {
    let key = ItemNames.key(word)
    if let ref = names[key] { return ref }
    let isProductID = ItemNames.isProductID(key)
    if isProductID, products[key] != nil { return .product(key) }
    // A deleted product's id does not fall through to another product that took it as a name.
    if !isProductID, let refs = displayNames[key] {
      if refs.count == 1 { return refs[0] }
      throw Self.ambiguous(word, refs.map(\.id))
    }
    if !isProductID, let ids = productNames[key] {
      if ids.count == 1 { return .product(ids[0]) }
      throw Self.ambiguous(word, ids.sorted { $0.count != $1.count ? $0.count < $1.count : $0 < $1 })
    }
    var message = "no item named \(Echo.quoted(word))"
    if let guess = suggestion(for: word) { message += "; did you mean \(Echo.quoted(guess))?" }
    throw ShopError(.notFound, message)
  }

  /// How many of the newest products' names a suggestion considers. Product names are up to 100
  /// characters and there may be 10,000 products: comparing a mistyped word with every one would
  /// let one request cost ~10^8 steps of edit distance.
  static let suggestedProductNames = 256

  /// The closest id, alias, display name or (recent) product name to `word`, for "did you mean".
  public func suggestion(for word: String) -> String? {
    var candidates = Array(names.keys) + productIDs
    for refs in displayNames.values { candidates += refs.compactMap(\.catalogName) }
    if word.utf8.count <= 256 {
      for id in productIDs.suffix(Self.suggestedProductNames) {
        if let name = products[id]?.name { candidates.append(name) }
      }
    }
    return ItemNames.suggestion(for: word, among: candidates)
  }

  /// Names shared by several items; at most a few ids are listed, in id order for products.
  private static func ambiguous(_ word: String, _ ids: [String]) -> ShopError {
    let shown = 5
    var list = ids.prefix(shown).joined(separator: ", ")
    if ids.count > shown { list += " and \(ids.count - shown) more" }
    return ShopError(.notFound, "\(Echo.quoted(word)) is the name of \(ids.count) items: \(list); name one by its id")
  }

  /// The display name of a stocked or catalogue item: the catalogue's `name`, or the product's.
  public func displayName(of id: String) -> String {
    if let product = products[id] { return product.name }
    return names[ItemNames.key(id)]?.catalogName ?? id
  }

  private mutating func indexName(of product: Product) {
    productNames[ItemNames.key(product.name), default: []].append(product.id)
  }

  private mutating func unindexName(of product: Product) {
    let key = ItemNames.key(product.name)
    productNames[key]?.removeAll { $0 == product.id }
    if productNames[key]?.isEmpty == true { productNames[key] = nil }
  }

  /// Like `resolve`, but only for things that can be ordered or restocked.
  public func resolveStocked(_ word: String, allowJuice: Bool) throws(ShopError) -> ItemRef {
    let ref = try resolve(word)
    switch ref {
    case .fruit, .dish, .product: return ref
    case .juice where allowJuice: return ref
    case .juice:
      throw ShopError(.invalid, "\(Echo.quoted(word)) is a juice, made from fruit; restock its fruit instead")
    case .section: throw ShopError(.invalid, "\(Echo.quoted(word)) is a section of the dish shop; name a dish in it")
    case .exhibit: throw ShopError(.invalid, "\(Echo.quoted(word)) is an exhibit; it is for looking at")
    }
  }

  public func level(of item: String) -> StockLevel? { stock[item] }

  /// Order keys honoured for retries, and how many of their full receipts are held in memory.
  public var orderKeyCount: Int { orderKeys.count }
  public var heldReceiptCount: Int { orderKeys.heldCount }

  /// The orders up to `orderID` are on disk: their receipts need no longer be held in memory,
  /// since a retry's answer can be read there.
  public mutating func settleReceipts(through orderID: Int) {
    orderKeys.settle(through: orderID)
  }

  /// How many of `juice` the fruit on hand makes now.
  public func canMake(_ juice: Juice) -> Int {
    juice.recipe.map { (stock[$0.item]?.current ?? 0) / $0.quantity }.min() ?? 0
  }

  public func dishes(in section: String?) -> [Dish] {
    guard let section else { return catalog.dishes }
    return catalog.dishes.filter { $0.section == section }
  }

  public func productsNewestFirst() -> [Product] {
    productIDs.reversed().compactMap { products[$0] }
  }

  /// `owner`'s entries, newest first.
  public func diaryEntries(of owner: String) -> [DiaryEntry] { diaryBook.entries(of: owner) }

  public func diaryCount(of owner: String) -> Int { diaryBook.count(of: owner) }

  /// `owner`'s entry by the number they see (see `Diary.entry`).
  public func diaryEntry(_ number: Int, of owner: String) throws(ShopError) -> DiaryEntry {
    try diaryBook.entry(number, of: owner)
  }

  /// Whether `name` owns diary entries or products without having an account: data from before
  /// accounts, or left by a removed account. Only an admin may create such a name.
  public func hasUnclaimedData(_ name: String) -> Bool {
    guard accounts[name] == nil else { return false }
    return diaryBook.hasEntries(of: name) || products.values.contains { $0.seller == name }
  }

  public var adminCount: Int { accountBook.adminCount }

  // MARK: Changing

  public mutating func apply(_ mutation: Mutation) throws(ShopError) -> Applied {
    switch mutation {
    case .restock(let user, let changes): return try restock(user: user, changes: changes)
    case .order(let user, let lines, let at, let key): return try order(user: user, lines: lines, at: at, key: key)
    case .createProduct(let seller, let draft, let at): return try createProduct(seller: seller, draft: draft, at: at)
    case .editProduct(let id, let user, let changes, let at):
      return try editProduct(id: id, user: user, changes: changes, at: at)
    case .deleteProduct(let id, let user, let anySeller):
      return try deleteProduct(id: id, user: user, anySeller: anySeller)
    case .createDiary(let owner, let title, let body, let at):
      return try createDiary(owner: owner, title: title, body: body, at: at)
    case .editDiary(let id, let owner, let title, let body, let at):
      return try editDiary(id: id, owner: owner, title: title, body: body, at: at)
    case .deleteDiary(let id, let owner): return try deleteDiary(id: id, owner: owner)
    case .createAccount(let account, let selfRegistered):
      return try createAccount(account, selfRegistered: selfRegistered)
    case .deleteAccount(let name): return try deleteAccount(name)
    case .setRole(let name, let role, let at): return try setRole(name, role, at: at)
    case .setPassword(let name, let hash, let at): return try setPassword(name, hash, at: at)
    }
  }

  private mutating func restock(user: String, changes: [ItemCount]) throws(ShopError) -> Applied {
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

  private mutating func order(user: String, lines: [ItemCount], at: Date, key: String?) throws(ShopError) -> Applied {
    guard !lines.isEmpty else { throw ShopError(.invalid, "an order needs at least one item") }
    if let key, let earlier = try repeatedOrder(user: user, lines: lines, at: at, key: key) { return earlier }
    guard lines.count <= limits.maximumOrderLines else {
      throw ShopError(.limit, "an order has at most \(limits.maximumOrderLines) lines")
    }
    let (needs, orderLines) = try stockNeeded(for: lines)
    try checkStock(for: needs)
    let id = counters.nextOrderID
    counters.nextOrderID += 1
    counters.ordersMade += 1
    var events: [StockEvent] = []
    events.reserveCapacity(needs.count)
    var levels: [ItemCount] = []
    levels.reserveCapacity(needs.count)
    for need in needs {
      // One look-up of the item, not one for each figure read or changed (checkStock saw it).
      let index = stock.index(forKey: need.item)!
      stock.values[index].taken += need.count
      stock.values[index].current -= need.count
      let current = stock.values[index].current
      levels.append(ItemCount(need.item, current))
      events.append(
        StockEvent(
          item: need.item, name: displayName(of: need.item), level: current, change: -need.count,
          cause: .order(id: id, user: user)))
    }
    let order = Order(id: id, user: user, placed: at, lines: orderLines, taken: needs)
    orders.append(order)
    let receipt = OrderReceipt(order: order, levels: levels, key: key, requested: lines)
    if let key { orderKeys.insert(receipt, key: OrderKey(user: user, key: key)) }
    return Applied(outcome: .ordered(receipt, repeated: false), events: events)
  }

  /// A keyed order seen before: its receipt again, or the order it became; nil when the key is
  /// new (and may be held).
  private mutating func repeatedOrder(
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
  private func stockNeeded(for lines: [ItemCount]) throws(ShopError) -> (needs: [ItemCount], lines: [OrderLine]) {
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

  /// Refuses, naming every shortage, when the stock cannot cover `needs`.
  private func checkStock(for needs: [ItemCount]) throws(ShopError) {
    var shortages: [Shortage] = []
    for need in needs {
      let available = stock[need.item]?.current ?? 0
      if need.count > available {
        shortages.append(Shortage(item: need.item, needed: need.count, available: available))
      }
    }
    if !shortages.isEmpty {
      let detail = shortages.map { "\($0.item) needs \($0.needed), has \($0.available)" }.joined(separator: "; ")
      throw ShopError(.shortage, "not enough stock, nothing taken: \(detail)", shortages: shortages)
    }
  }

  private func validateProductText(name: String?, description: String?) throws(ShopError) {
    if let name { try TextRules.check(name, as: limits.productName) }
    if let description { try TextRules.check(description, as: limits.productDescription) }
  }

  private mutating func createProduct(seller: String, draft: ProductDraft, at: Date) throws(ShopError) -> Applied {
    // What is wrong with the product itself is said first, whatever the market holds.
    try validateProductText(name: draft.name, description: draft.description)
    try draft.discount?.validate(against: draft.price)
    guard (0...Catalog.maximumStock).contains(draft.stock) else {
      throw ShopError(.invalid, "stock must be 0 to \(Catalog.maximumStock)")
    }
    let cap = limits.products
    switch cap.refusal(held: products.values.count(where: { $0.seller == seller }), used: products.count) {
    case .full: throw ShopError(.limit, "the market holds at most \(cap.total) products")
    case .ownerFull: throw ShopError(.limit, "a seller lists at most \(cap.perOwner) products; delist some first")
    case .reserved:
      throw ShopError(
        .limit,
        "the market is nearly full; its last \(cap.reserve) places are kept for sellers with fewer than \(cap.small)")
    case nil: break
    }
    let id = "p\(counters.nextProductID)"
    counters.nextProductID += 1
    let product = Product(
      id: id, name: draft.name, description: draft.description, price: draft.price, discount: draft.discount,
      seller: seller, created: at, updated: at)
    products[id] = product
    productIDs.append(id)
    indexName(of: product)
    counters.namesGeneration += 1
    stock[id] = StockLevel(initial: draft.stock)
    let event = StockEvent(
      item: id, name: product.name, level: draft.stock, change: draft.stock, cause: .listed(user: seller))
    return Applied(outcome: .productSaved(product), events: [event])
  }

  private func ownedProduct(_ id: String, by user: String) throws(ShopError) -> Product {
    guard let product = products[ItemNames.key(id)] else { throw ShopError(.notFound, "no product \(Echo.quoted(id))") }
    guard product.seller == user else {
      throw ShopError(.denied, "\(product.id) is sold by \(product.seller), not \(user)")
    }
    return product
  }

  private mutating func editProduct(
    id: String, user: String, changes: ProductChanges, at: Date
  ) throws(ShopError) -> Applied {
    var product = try ownedProduct(id, by: user)
    guard !changes.isEmpty else { throw ShopError(.invalid, "nothing to change") }
    try validateProductText(name: changes.name, description: changes.description)
    if let name = changes.name { product.name = name }
    if let description = changes.description { product.description = description }
    if let price = changes.price {
      if price.currency != product.price.currency, case .salePrice = product.discount, changes.discount == nil {
        throw ShopError(
          .invalid, "the sale price is in \(product.price.currency.rawValue); give discount= with the new currency")
      }
      product.price = price
    }
    if let discount = changes.discount { product.discount = discount }
    try product.discount?.validate(against: product.price)
    product.updated = at
    if let old = products[product.id], old.name != product.name {
      unindexName(of: old)
      indexName(of: product)
      counters.namesGeneration += 1
    }
    products[product.id] = product
    return Applied(outcome: .productSaved(product), events: [])
  }

  private mutating func deleteProduct(id: String, user: String, anySeller: Bool) throws(ShopError) -> Applied {
    let product: Product
    if anySeller {
      guard let found = products[ItemNames.key(id)] else { throw ShopError(.notFound, "no product \(Echo.quoted(id))") }
      product = found
    } else {
      product = try ownedProduct(id, by: user)
    }
    products[product.id] = nil
    productIDs.removeAll { $0 == product.id }
    unindexName(of: product)
    counters.namesGeneration += 1
    let level = stock.removeValue(forKey: product.id)?.current ?? 0
    let event = StockEvent(item: product.id, name: product.name, level: 0, change: -level, cause: .delisted(user: user))
    return Applied(outcome: .productDeleted(product.id), events: [event])
  }

  // MARK: Diary

  private mutating func createDiary(owner: String, title: String, body: String, at: Date) throws(ShopError) -> Applied {
    let entry = try diaryBook.create(id: counters.nextDiaryID, owner: owner, title: title, body: body, at: at)
    counters.nextDiaryID += 1
    return Applied(outcome: .diarySaved(entry), events: [])
  }

  private mutating func editDiary(
    id number: Int, owner: String, title: String?, body: String?, at: Date
  ) throws(ShopError) -> Applied {
    Applied(outcome: .diarySaved(try diaryBook.edit(number, of: owner, title: title, body: body, at: at)), events: [])
  }

  private mutating func deleteDiary(id number: Int, owner: String) throws(ShopError) -> Applied {
    Applied(outcome: .diaryDeleted(try diaryBook.delete(number, of: owner).id), events: [])
  }

  // MARK: Accounts

  private mutating func createAccount(_ account: Account, selfRegistered: Bool) throws(ShopError) -> Applied {
    try accountBook.create(account, selfRegistered: selfRegistered, unclaimedData: hasUnclaimedData(account.name))
    return Applied(outcome: .accountSaved(account), events: [])
  }

  private mutating func deleteAccount(_ name: String) throws(ShopError) -> Applied {
    try accountBook.delete(name)
    return Applied(outcome: .accountDeleted(name), events: [])
  }

  private mutating func setRole(_ name: String, _ role: Role, at: Date) throws(ShopError) -> Applied {
    Applied(outcome: .accountSaved(try accountBook.setRole(name, role, at: at)), events: [])
  }

  private mutating func setPassword(_ name: String, _ hash: String, at: Date) throws(ShopError) -> Applied {
    Applied(outcome: .accountSaved(try accountBook.setPassword(name, hash, at: at)), events: [])
  }
}

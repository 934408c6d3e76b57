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
  public internal(set) var stock: [String: StockLevel] = [:]
  public internal(set) var products: [String: Product] = [:]
  /// Product ids, oldest first.
  public internal(set) var productIDs: [String] = []
  /// Every user's diary.
  public private(set) var diaryBook: Diary
  public private(set) var accountBook: AccountBook
  /// Diary entries by store id.
  public var diary: [Int: DiaryEntry] { diaryBook.entries }
  /// Each owner's next diary number.
  public var diaryNumbers: [String: Int] { diaryBook.nextNumbers }
  public var accounts: [String: Account] { accountBook.accounts }
  public internal(set) var orders: OrderHistory
  public internal(set) var counters = ShopCounters()
  /// Keyed orders, for retries.
  var orderKeys = OrderKeys()

  public var ordersMade: Int { counters.ordersMade }
  /// Grows whenever the set of names changes (a product listed or delisted), so clients know
  /// when their completion list is stale.
  public var namesGeneration: Int { counters.namesGeneration }
  /// Every name things are asked for by (`ShopState+Names`); the market keeps its product names.
  var nameIndex: ItemNameIndex

  public init(catalog: Catalog, limits: ShopLimits = ShopLimits()) {
    self.catalog = catalog
    self.limits = limits
    self.orders = OrderHistory(capacity: limits.orderHistory)
    self.diaryBook = Diary(limits: limits)
    self.accountBook = AccountBook(limits: limits)
    self.nameIndex = ItemNameIndex(catalog: catalog)
    for fruit in catalog.fruits { stock[fruit.id] = StockLevel(initial: catalog.initialStock) }
    for dish in catalog.dishes { stock[dish.id] = StockLevel(initial: dish.stock) }
  }

  /// The shop as a store saved it, on the catalogue as loaded now. Items the catalogue gained
  /// since start at their catalogue stock; items it kept keep their saved levels.
  public init(catalog: Catalog, limits: ShopLimits = ShopLimits(), restoring snapshot: ShopSnapshot) {
    self.init(catalog: catalog, limits: limits)
    for (item, level) in snapshot.stock { stock[item] = level }
    for product in snapshot.products {
      products[product.id] = product
      productIDs.append(product.id)
      nameIndex.add(product)
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

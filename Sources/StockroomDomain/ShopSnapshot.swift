/// Everything a durable store hands back to rebuild the shop after a restart.
public struct ShopSnapshot: Sendable {
  public var stock: [String: StockLevel] = [:]
  /// Oldest first.
  public var products: [Product] = []
  public var diary: [DiaryEntry] = []
  /// Each owner's next diary number.
  public var diaryNumbers: [String: Int] = [:]
  public var accounts: [Account] = []
  /// Oldest first; only the newest `orderHistory` are kept.
  public var recentOrders: [Order] = []
  /// Order keys still within their retention, oldest first.
  public var orderKeys: [OrderKeyRecord] = []
  public var counters = ShopCounters()

  public init() {}
}

import StockroomDomain

/// The rows that a run of mutations changed, ready to be written in one transaction.
///
/// Built under the store's lock from each mutation's result, in order; merging keeps only the
/// last image of a row, so a batch of a thousand orders on one fruit writes that fruit once.
public struct JournalBatch: Sendable {
  public var stock: [String: StockLevel] = [:]
  public var deletedStock: Set<String> = []
  public var ledger: [LedgerEntry] = []
  public var orders: [Order] = []
  public var receipts: [OrderReceipt] = []
  public var products: [String: Product] = [:]
  public var deletedProducts: Set<String> = []
  public var diary: [Int: DiaryEntry] = [:]
  public var deletedDiary: Set<Int> = []
  public var counters: ShopCounters? = nil
  /// How many mutations the batch holds.
  public var count = 0

  public init() {}

  public var isEmpty: Bool { count == 0 }

  public mutating func merge(_ other: JournalBatch) {
    for (item, level) in other.stock {
      stock[item] = level
      deletedStock.remove(item)
    }
    deletedStock.formUnion(other.deletedStock)
    for item in other.deletedStock { stock[item] = nil }
    ledger += other.ledger
    orders += other.orders
    receipts += other.receipts
    for (id, product) in other.products { products[id] = product }
    for id in other.deletedProducts { products[id] = nil }
    deletedProducts.formUnion(other.deletedProducts)
    for (id, entry) in other.diary { diary[id] = entry }
    for id in other.deletedDiary { diary[id] = nil }
    deletedDiary.formUnion(other.deletedDiary)
    if let counters = other.counters { self.counters = counters }
    count += other.count
  }
}

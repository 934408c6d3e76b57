import StockroomDomain

/// The rows that a run of mutations changed, ready to be written in one transaction.
///
/// Filled under the shop's lock from each mutation's result, in order; a row keeps only its last
/// image, so a batch of a thousand orders on one fruit writes that fruit once.
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
  /// Owners whose next diary number moved, with the number.
  public var diaryNumbers: [String: Int] = [:]
  public var accounts: [String: Account] = [:]
  public var deletedAccounts: Set<String> = []
  public var counters: ShopCounters? = nil
  /// How many mutations the batch holds.
  public var count = 0

  public init() {}

  public var isEmpty: Bool { count == 0 }

}

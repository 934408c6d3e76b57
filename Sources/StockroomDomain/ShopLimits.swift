/// Bounds on what clients can make the shop hold.
public struct ShopLimits: Sendable, Equatable {
  /// The market: 10,000 products, 100 a seller (a stall, not a warehouse), the last 1,000 kept
  /// for sellers with fewer than 10, so a few accounts cannot fill it against everyone else.
  public var products = ShareCap(total: 10_000, perOwner: 100, reserve: 1_000, small: 10)
  /// All diaries together: 100,000 entries, 1,000 a user, the last 10,000 kept for users with fewer
  /// than 100.
  public var diaryEntries = ShareCap(total: 100_000, perOwner: 1_000, reserve: 10_000, small: 100)
  public var maximumProducts: Int { products.total }
  public var maximumDiaryEntries: Int { diaryEntries.total }
  public var maximumDiaryEntriesPerUser: Int { diaryEntries.perOwner }
  /// About 250 bytes each in memory (name, role, a 97-byte hash), so 25 MB at most.
  public var maximumAccounts = 100_000
  /// Orders kept for `LIST orders`; older ones are dropped from the list, not from the counts.
  public var orderHistory = 10_000
  public var maximumQuantity = 1_000_000
  public var maximumOrderLines = 100
  /// Items one `STOCK` may name, so that a short request cannot ask for a long reply.
  public var maximumStockNames = 100
  /// Text is bounded in characters, as people count, and in UTF-8 bytes, since one character
  /// can be built from any number of code points.
  public var maximumTitleLength = 200
  public var maximumTitleBytes = 800
  public var maximumBodyBytes = 16 * 1024
  public var maximumNameLength = 100
  public var maximumNameBytes = 400
  public var maximumDescriptionLength = 1_000
  public var maximumDescriptionBytes = 4_000
  /// Keyed orders remembered for retries; a key is kept at least `orderKeyRetention` seconds.
  /// With a database, memory holds about 120 bytes per key (receipts are read from the file).
  public var maximumOrderKeys = 1_000_000
  public var orderKeyRetention: Double = 24 * 60 * 60
  public var maximumKeyLength = 64

  public init() {}

  public var productName: TextField {
    TextField("a product name", characters: 1...maximumNameLength, bytes: 1...maximumNameBytes, lines: .one)
  }

  public var productDescription: TextField {
    TextField(
      "a description", characters: 0...maximumDescriptionLength, bytes: 0...maximumDescriptionBytes, lines: .many)
  }

  public var diaryTitle: TextField {
    TextField("a title", characters: 1...maximumTitleLength, bytes: 1...maximumTitleBytes, lines: .one)
  }

  public var diaryBody: TextField {
    TextField("a body", characters: nil, bytes: 0...maximumBodyBytes, lines: .many)
  }

  public var orderKey: TextField {
    TextField("an order key", characters: nil, bytes: 1...maximumKeyLength, lines: .one)
  }

  /// Keys held without a database keep their whole receipt in memory (up to about 9 KB for an
  /// order of 100 lines), so far fewer are allowed.
  public static let inMemoryOrderKeys = 10_000

  /// The limits of a shop that lives in memory only.
  public static var inMemory: ShopLimits {
    var limits = ShopLimits()
    limits.maximumOrderKeys = inMemoryOrderKeys
    return limits
  }
}

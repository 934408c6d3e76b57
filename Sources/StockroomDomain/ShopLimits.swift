/// Bounds on what clients can make the shop hold.
public struct ShopLimits: Sendable, Equatable {
  public var maximumProducts = 10_000
  public var maximumDiaryEntries = 100_000
  public var maximumDiaryEntriesPerUser = 1_000
  /// Orders kept for `LIST orders`; older ones are dropped from the list, not from the counts.
  public var orderHistory = 10_000
  public var maximumQuantity = 1_000_000
  public var maximumOrderLines = 100
  public var maximumTitleLength = 200
  public var maximumBodyBytes = 16 * 1024
  public var maximumNameLength = 100
  public var maximumDescriptionLength = 1_000
  /// Keyed orders remembered for retries; a key is kept at least `orderKeyRetention` seconds.
  /// With a database, memory holds about 120 bytes per key (receipts are read from the file).
  public var maximumOrderKeys = 1_000_000
  public var orderKeyRetention: Double = 24 * 60 * 60
  public var maximumKeyLength = 64

  public init() {}

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

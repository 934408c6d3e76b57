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
  public var maximumOrderKeys = 1_000_000
  public var orderKeyRetention: Double = 24 * 60 * 60
  public var maximumKeyLength = 64

  public init() {}
}

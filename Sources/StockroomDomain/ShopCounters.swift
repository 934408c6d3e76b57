/// The id counters and tallies that are not derivable from the rows a store keeps.
public struct ShopCounters: Sendable, Hashable {
  public var nextOrderID = 1
  public var nextProductID = 1
  public var nextDiaryID = 1
  public var namesGeneration = 0
  public var ordersMade = 0

  public init() {}
}

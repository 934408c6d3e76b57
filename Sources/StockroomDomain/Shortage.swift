/// One ingredient or item an order needed more of than there was.
public struct Shortage: Sendable, Equatable {
  public var item: String
  public var needed: Int
  public var available: Int

  public init(item: String, needed: Int, available: Int) {
    self.item = item
    self.needed = needed
    self.available = available
  }

  public var missing: Int { needed - available }
}

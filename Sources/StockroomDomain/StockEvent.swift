/// A change of one item's stock level, as WATCH reports it.
public struct StockEvent: Sendable, Equatable {
  public enum Cause: Sendable, Equatable {
    case order(id: Int, user: String)
    case restock(user: String)
    case correction(user: String)
    case listed(user: String)
    case delisted(user: String)
  }

  public var item: String
  public var level: Int
  public var change: Int
  public var cause: Cause

  public init(item: String, level: Int, change: Int, cause: Cause) {
    self.item = item
    self.level = level
    self.change = change
    self.cause = cause
  }
}

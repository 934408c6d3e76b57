import Foundation

/// One movement of one item's stock, as STOCKTAKE lists it.
public struct LedgerEntry: Sendable, Hashable {
  public var item: String
  public var change: Int
  /// `order`, `restock`, `stocktake`, `listed` or `delisted`.
  public var cause: String
  public var orderID: Int?
  public var user: String
  public var at: Date
  /// Position in the ledger; 0 until stored.
  public var sequence: Int

  public init(item: String, change: Int, cause: String, orderID: Int?, user: String, at: Date, sequence: Int = 0) {
    self.item = item
    self.change = change
    self.cause = cause
    self.orderID = orderID
    self.user = user
    self.at = at
    self.sequence = sequence
  }

  /// The ledger's record of one stock event.
  public init(_ event: StockEvent, at: Date) {
    self.init(
      item: event.item, change: event.change, cause: event.cause.name, orderID: event.cause.orderID,
      user: event.cause.user, at: at)
  }
}

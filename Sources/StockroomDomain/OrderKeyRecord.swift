import Foundation

/// A keyed order as a durable store keeps it for retries: enough to recognise a retry, not to
/// answer it (the store reads the full receipt when one comes).
public struct OrderKeyRecord: Sendable, Hashable {
  public var key: OrderKey
  public var orderID: Int
  /// The lines as requested, as `ItemCount.listText` writes them.
  public var requestedText: String
  public var placed: Date

  public init(key: OrderKey, orderID: Int, requestedText: String, placed: Date) {
    self.key = key
    self.orderID = orderID
    self.requestedText = requestedText
    self.placed = placed
  }
}

import Foundation

/// What an order's reply says: the order and the level of each item it took, right after.
/// Kept for keyed orders so that a retry answers exactly what the first attempt answered.
public struct OrderReceipt: Sendable, Hashable {
  public var order: Order
  /// Level after the order, for each item in `order.taken`, in the same order.
  public var levels: [ItemCount]
  /// The client's key, when the order had one.
  public var key: String?
  /// The lines as requested, to tell a retry from a different order under the same key.
  public var requested: [ItemCount]

  public init(order: Order, levels: [ItemCount], key: String?, requested: [ItemCount]) {
    self.order = order
    self.levels = levels
    self.key = key
    self.requested = requested
  }
}

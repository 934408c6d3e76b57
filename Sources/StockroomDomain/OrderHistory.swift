/// The most recent orders, oldest dropped first, in a fixed-size ring so that appending stays
/// cheap however many orders the shop has taken.
public struct OrderHistory: Sendable {
  private var ring: [Order] = []
  private var start = 0
  public let capacity: Int

  public init(capacity: Int) {
    self.capacity = max(1, capacity)
  }

  public var count: Int { ring.count }

  public mutating func append(_ order: Order) {
    if ring.count < capacity {
      ring.append(order)
    } else {
      ring[start] = order
      start = (start + 1) % capacity
    }
  }

  /// The `index`-th newest order (0 is the newest).
  public func newest(_ index: Int) -> Order {
    ring[(start + ring.count - 1 - index) % ring.count]
  }

  public func page(_ paging: Paging) -> Page<Order> {
    let first = min(count, (paging.page - 1) * paging.size)
    let last = min(count, first + paging.size)
    return Page(items: (first..<last).map(newest), paging: paging, total: count)
  }

  /// `user`'s orders among those held, newest first.
  public func newestFirst(of user: String) -> [Order] {
    (0..<count).lazy.map(newest).filter { $0.user == user }
  }

  /// The id of the oldest order held; every later order is held too.
  public var oldestID: Int? { ring.isEmpty ? nil : newest(count - 1).id }

}

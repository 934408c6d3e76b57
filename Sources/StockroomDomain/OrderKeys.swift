import Foundation

/// The order keys the shop honours retries of, kept small: per key a 16-byte digest and 24 bytes
/// of order id, lines digest and time, about 120 bytes in all (measured) with the hash table and the
/// expiry queue. The full receipt of a keyed order is kept only until its store says the order
/// is on disk (`settle`), where a retry's answer is read; a shop without a disk keeps them all.
struct OrderKeys: Sendable {
  enum Lookup: Equatable {
    case new
    /// A retry whose receipt is still held here.
    case held(OrderReceipt)
    /// A retry of an order already on disk.
    case settled(orderID: Int)
    /// The key was used for a different order.
    case conflict(orderID: Int)
  }

  private struct Kept: Sendable {
    var orderID: Int
    var requested: UInt64
    var placed: Double
  }

  private var kept: [KeyDigest: Kept] = [:]
  /// Keys oldest first, so that expired ones leave cheaply.
  private var queue: [KeyDigest] = []
  private var queueStart = 0
  private var held: [KeyDigest: OrderReceipt] = [:]
  /// Held receipts in order id order, so that settling stops at the first not yet on disk.
  private var heldQueue: [KeyDigest] = []
  private var heldStart = 0

  var count: Int { kept.count }
  var heldCount: Int { held.count }

  func lookup(_ key: OrderKey, requested: [ItemCount]) -> Lookup {
    let digest = KeyDigest(key)
    guard let entry = kept[digest] else { return .new }
    guard entry.requested == KeyDigest.requested(requested) else { return .conflict(orderID: entry.orderID) }
    if let receipt = held[digest] { return .held(receipt) }
    return .settled(orderID: entry.orderID)
  }

  /// A new keyed order, whose receipt is held until `settle` says it is on disk.
  mutating func insert(_ receipt: OrderReceipt, key: OrderKey) {
    let digest = KeyDigest(key)
    kept[digest] = Kept(
      orderID: receipt.order.id, requested: KeyDigest.requested(receipt.requested),
      placed: receipt.order.placed.timeIntervalSince1970)
    queue.append(digest)
    held[digest] = receipt
    heldQueue.append(digest)
  }

  /// A key a store kept, already on disk.
  mutating func restore(_ record: OrderKeyRecord) {
    let digest = KeyDigest(record.key)
    kept[digest] = Kept(
      orderID: record.orderID, requested: KeyDigest.requested(text: record.requestedText),
      placed: record.placed.timeIntervalSince1970)
    queue.append(digest)
  }

  /// Drops the held receipts of orders up to `orderID`: they are on disk now.
  mutating func settle(through orderID: Int) {
    while heldStart < heldQueue.count {
      let digest = heldQueue[heldStart]
      if let receipt = held[digest] {
        guard receipt.order.id <= orderID else { break }
        held[digest] = nil
      }
      heldStart += 1
    }
    Self.compact(&heldQueue, &heldStart)
  }

  /// Forgets keys placed before `cutoff`; they leave in the order they came.
  mutating func expire(before cutoff: Date) {
    let limit = cutoff.timeIntervalSince1970
    while queueStart < queue.count {
      let digest = queue[queueStart]
      if let entry = kept[digest] {
        guard entry.placed < limit else { break }
        kept[digest] = nil
        held[digest] = nil
      }
      queueStart += 1
    }
    Self.compact(&queue, &queueStart)
  }

  private static func compact(_ queue: inout [KeyDigest], _ start: inout Int) {
    if start > 1024 && start * 2 > queue.count {
      queue.removeFirst(start)
      start = 0
    } else if start == queue.count && start > 0 {
      queue.removeAll(keepingCapacity: true)
      start = 0
    }
  }
}

import Synchronization

/// A fixed number of counters, each an atomic of its own, for figures counted on every request
/// (commands by name and result): a thread adds to one slot without a lock or a copy.
package final class AtomicCounters: @unchecked Sendable {
  // Atomic is not copyable, so the slots live in memory of their own rather than in an Array;
  // the pointer never changes after init, which is what makes the class Sendable.
  private let slots: UnsafeMutablePointer<Atomic<Int>>
  package let count: Int

  package init(count: Int) {
    self.count = count
    slots = .allocate(capacity: count)
    for index in 0..<count { (slots + index).initialize(to: Atomic(0)) }
  }

  package func add(_ index: Int, _ amount: Int = 1) {
    slots[index].add(amount, ordering: .relaxed)
  }

  package subscript(index: Int) -> Int { slots[index].load(ordering: .relaxed) }

  deinit {
    slots.deinitialize(count: count)
    slots.deallocate()
  }
}

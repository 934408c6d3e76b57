/// An event loop's timers as a binary min-heap on their deadlines, so the next one is found in
/// O(1) and added or taken in O(log n) however many connections hold one.
package struct TimerHeap {
  package struct Entry {
    package let deadline: UInt64
    /// Breaks ties, so timers due at the same moment fire in the order they were set.
    package let id: Int
    package let body: () -> Void

    package func precedes(_ other: Entry) -> Bool { (deadline, id) < (other.deadline, other.id) }
  }

  private var entries: [Entry] = []

  package var isEmpty: Bool { entries.isEmpty }
  package var count: Int { entries.count }
  package var first: Entry? { entries.first }

  package mutating func push(_ entry: Entry) {
    entries.append(entry)
    siftUp(entries.count - 1)
  }

  package mutating func popFirst() {
    guard !entries.isEmpty else { return }
    entries.swapAt(0, entries.count - 1)
    entries.removeLast()
    if !entries.isEmpty { siftDown(0) }
  }

  /// Drops every entry `shouldRemove` picks and restores the heap order in O(n).
  package mutating func removeAll(where shouldRemove: (Entry) -> Bool) {
    entries.removeAll(where: shouldRemove)
    for index in stride(from: entries.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
  }

  private mutating func siftUp(_ start: Int) {
    var child = start
    while child > 0 {
      let parent = (child - 1) / 2
      guard entries[child].precedes(entries[parent]) else { return }
      entries.swapAt(child, parent)
      child = parent
    }
  }

  private mutating func siftDown(_ start: Int) {
    var parent = start
    while true {
      let left = 2 * parent + 1
      guard left < entries.count else { return }
      var smallest = left
      if left + 1 < entries.count && entries[left + 1].precedes(entries[left]) { smallest = left + 1 }
      guard entries[smallest].precedes(entries[parent]) else { return }
      entries.swapAt(smallest, parent)
      parent = smallest
    }
  }
}

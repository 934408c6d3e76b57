import StockroomDomain
import Synchronization

/// Who is watching stock, and the hand-off of events to them.
final class WatchHub: Sendable {
  private let mailboxes = Mutex<[Int: EventMailbox]>([:])
  private let count = Atomic<Int>(0)

  var watcherCount: Int { count.load(ordering: .relaxed) }

  func subscribe(_ connection: Int, _ mailbox: EventMailbox) {
    mailboxes.withLock { all in
      if all.updateValue(mailbox, forKey: connection) == nil { count.add(1, ordering: .relaxed) }
    }
  }

  func unsubscribe(_ connection: Int) {
    mailboxes.withLock { all in
      if all.removeValue(forKey: connection) != nil { count.subtract(1, ordering: .relaxed) }
    }
  }

  /// Called with the store's lock held, so mailboxes receive events in the order of the changes.
  /// Returns the mailboxes whose connections must be woken once that lock is released.
  func deliver(_ events: [StockEvent]) -> [EventMailbox] {
    guard watcherCount > 0, !events.isEmpty else { return [] }
    return mailboxes.withLock { all in
      all.values.filter { $0.enqueue(events) }
    }
  }
}

import StockroomDomain
import Synchronization

/// Who is watching stock, and the hand-off of events to them.
package final class WatchHub: Sendable {
  private let mailboxes = Mutex<[Int: EventMailbox]>([:])
  private let count = Atomic<Int>(0)

  package var watcherCount: Int { count.load(ordering: .relaxed) }

  package func subscribe(_ connection: Int, _ mailbox: EventMailbox) {
    mailboxes.withLock { all in
      if all.updateValue(mailbox, forKey: connection) == nil { count.add(1, ordering: .relaxed) }
    }
  }

  package func unsubscribe(_ connection: Int) {
    mailboxes.withLock { all in
      if all.removeValue(forKey: connection) != nil { count.subtract(1, ordering: .relaxed) }
    }
  }

  /// Moves `connection` from `old` to what `watching` names (nil: nothing, empty: everything):
  /// the new mailbox replaces the old in one step, so every change lands in one or the other,
  /// and what reached the old one came first and is still owed to the client. `wake` is called,
  /// on any thread, when events arrive.
  package func resubscribe(
    _ connection: Int, from old: EventMailbox?, to watching: Set<String>?, wake: @escaping @Sendable () -> Void
  ) -> (mailbox: EventMailbox?, owed: [EncodedEvent]) {
    var mailbox: EventMailbox?
    if let watching {
      let new = EventMailbox(filter: watching.isEmpty ? nil : watching, wake: wake)
      subscribe(connection, new)
      mailbox = new
    } else if old != nil {
      unsubscribe(connection)
    }
    return (mailbox, old?.take().events ?? [])
  }

  /// Called by one caller at a time in the order of the changes: under the shop's lock in
  /// memory, from the committer's one thread in commit order on disk. So every mailbox receives
  /// events in that order. Returns the mailboxes whose connections must be woken, which the
  /// caller does after letting go of any lock it holds. Each event is encoded here, once for
  /// every watcher.
  package func deliver(_ events: [StockEvent]) -> [EventMailbox] {
    guard watcherCount > 0, !events.isEmpty else { return [] }
    let wrapped = events.map { EncodedEvent(.stock($0)) }
    return mailboxes.withLock { all in
      all.values.filter { $0.enqueue(wrapped) }
    }
  }

  /// Tells every watcher that the shared store was lost or is back, in line with the stock
  /// events around it (the caller is the one that delivers those).
  package func announce(_ link: StoreLink) -> [EventMailbox] {
    guard watcherCount > 0 else { return [] }
    let event = [EncodedEvent(.store(link))]
    return mailboxes.withLock { all in
      all.values.filter { $0.enqueue(event) }
    }
  }
}

import StockroomDomain
import Synchronization

/// Events waiting for one watching connection.
///
/// `WatchHub.deliver` fills it in the order the changes were made (see there); the connection
/// empties it on its loop's thread, between replies.
package final class EventMailbox: Sendable {
  private struct Contents {
    var events: [EncodedEvent] = []
    var wakeScheduled = false
    var overflowed = false
    /// Events this watcher wanted but could not be given: past capacity, or after it.
    var dropped = 0
  }

  /// Past this many undelivered events the watcher is too slow and is disconnected.
  package static let capacity = 100_000

  package let filter: Set<String>?
  private let contents = Mutex(Contents())
  private let wake: @Sendable () -> Void

  package init(filter: Set<String>?, wake: @escaping @Sendable () -> Void) {
    self.filter = filter
    self.wake = wake
  }

  /// Adds the events this watcher wants; true when the connection must be woken.
  package func enqueue(_ events: [EncodedEvent]) -> Bool {
    contents.withLock { contents in
      var added = false
      for event in events where event.event.concerns(filter) {
        if contents.overflowed || contents.events.count >= Self.capacity {
          contents.overflowed = true
          contents.dropped += 1
          continue
        }
        contents.events.append(event)
        added = true
      }
      guard added || contents.overflowed, !contents.wakeScheduled else { return false }
      contents.wakeScheduled = true
      return true
    }
  }

  package func notify() { wake() }

  /// Everything pending, whether some were lost to overflow, and how many.
  package func take() -> (events: [EncodedEvent], overflowed: Bool, dropped: Int) {
    contents.withLock { contents in
      defer {
        contents.events = []
        contents.wakeScheduled = false
        contents.dropped = 0
      }
      return (contents.events, contents.overflowed, contents.dropped)
    }
  }
}

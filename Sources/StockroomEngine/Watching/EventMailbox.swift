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
    /// Events this watcher wanted but could not be given: those queued when it overflowed, and
    /// every one after.
    var dropped = 0
  }

  /// Past this many undelivered events a WATCH connection is too slow and is disconnected.
  package static let capacity = 100_000

  /// Past this many undelivered events this watcher is too slow (`capacity` for a WATCH
  /// connection; a board stream, which resyncs when it reconnects, holds fewer).
  package let limit: Int

  package let filter: Set<String>?
  /// The one item of a filter that names one (`WATCH banana`, the usual case): comparing a name
  /// with it is a fraction of hashing the name for the set, once per watcher per change.
  private let onlyItem: String?
  private let contents = Mutex(Contents())
  private let wake: @Sendable () -> Void
  /// A buffer the taker hands back (`take(into:)`) no larger than this is kept for the next
  /// events, so a watcher that takes a change at a time allocates nothing per change; a larger
  /// one (a burst) is let go, so an idle watcher does not hold it.
  private static let keptCapacity = 64

  package init(filter: Set<String>?, limit: Int = EventMailbox.capacity, wake: @escaping @Sendable () -> Void) {
    self.filter = filter
    self.limit = limit
    self.onlyItem = filter?.count == 1 ? filter?.first : nil
    self.wake = wake
  }

  private func wants(_ event: EncodedEvent) -> Bool {
    if let onlyItem, case .stock(let stock) = event.event { return stock.item == onlyItem }
    return event.event.concerns(filter)
  }

  /// Adds the events this watcher wants; true when the connection must be woken.
  package func enqueue(_ events: [EncodedEvent]) -> Bool {
    contents.withLock { contents in
      var added = false
      for event in events where wants(event) {
        if contents.overflowed || contents.events.count >= limit {
          if !contents.overflowed {
            // The watcher is closed for this and none of what is queued reaches it: let the
            // events go now, not when a stalled watcher next runs, and count them as dropped.
            contents.overflowed = true
            contents.dropped += contents.events.count
            contents.events = []
          }
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
    var events: [EncodedEvent] = []
    let (overflowed, dropped) = take(into: &events)
    return (events, overflowed, dropped)
  }

  /// Everything pending, in `events` (which must be empty): the two buffers change places, so
  /// a watcher that hands the same one back every time makes no new one per change.
  package func take(into events: inout [EncodedEvent]) -> (overflowed: Bool, dropped: Int) {
    precondition(events.isEmpty, "events are taken into an empty buffer")
    if events.capacity > Self.keptCapacity { events = [] }
    return contents.withLock { contents in
      swap(&events, &contents.events)
      defer {
        contents.wakeScheduled = false
        contents.dropped = 0
      }
      return (contents.overflowed, contents.dropped)
    }
  }
}

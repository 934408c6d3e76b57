import Synchronization

/// What a node's reads of its cache cost in waiting for the shared store (`--reads
/// linearizable`), for INFO and the metrics.
package final class ReadIndexCounts: Sendable {
  /// Reads that waited for the cache to catch up with the store.
  package let waited = Atomic<Int>(0)
  /// The round trips that caught it up: a burst of reads shares one.
  package let catchUps = Atomic<Int>(0)
  /// Reads answered from the cache unconfirmed, while the store could not be reached.
  package let unconfirmed = Atomic<Int>(0)

  package init() {}
}

import Synchronization

/// A Prometheus histogram kept in whole units (nanoseconds, changes), with fixed upper bounds.
/// One atomic per bucket and one for the sum: observing costs two relaxed adds, never a lock.
package final class Histogram: Sendable {
  /// Upper bounds in the stored unit, ascending; a last bucket past them counts the rest.
  package let bounds: [Int]
  /// What one stored unit is in the exposed one (1e-9 to show nanoseconds as seconds).
  package let scale: Double
  private let buckets: AtomicCounters
  private let total = Atomic<Int>(0)

  package init(bounds: [Int], scale: Double = 1) {
    self.bounds = bounds
    self.scale = scale
    buckets = AtomicCounters(count: bounds.count + 1)
  }

  /// Seconds, stored as nanoseconds.
  package static func seconds(_ bounds: [Double]) -> Histogram {
    Histogram(bounds: bounds.map { Int(($0 * 1e9).rounded()) }, scale: 1e-9)
  }

  package func observe(_ value: Int) {
    let index = bounds.firstIndex { value <= $0 } ?? bounds.count
    buckets.add(index)
    total.add(value, ordering: .relaxed)
  }

  package func observe(_ duration: Duration) {
    let (seconds, attoseconds) = duration.components
    observe(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
  }

  /// Cumulative counts per bound, ending with +Inf, and the sum in the exposed unit. The counts
  /// are added up here from one read of each bucket, so they always rise and +Inf is the count,
  /// even while observations land during the read.
  package var snapshot: (buckets: [(bound: Double, count: Int)], sum: Double, count: Int) {
    var running = 0
    var cumulative: [(bound: Double, count: Int)] = []
    for index in 0...bounds.count {
      running += buckets[index]
      cumulative.append((index < bounds.count ? Double(bounds[index]) * scale : .infinity, running))
    }
    return (cumulative, Double(total.load(ordering: .relaxed)) * scale, running)
  }
}

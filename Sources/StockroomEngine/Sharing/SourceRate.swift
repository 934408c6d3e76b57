import Synchronization

/// A rate per source: a token bucket for each address, `perSecond` tokens a second up to `burst`
/// (docs/security.md, "Fair shares"). Orders take one token per line, so one host ordering as
/// fast as it can grows the database by a bounded amount a second, while each other host keeps
/// its own bucket.
///
/// The table is bounded: past `capacity` sources, those whose buckets have refilled (which is
/// the same as having none) are forgotten first, then the fullest.
package final class SourceRate: Sendable {
  private struct Bucket {
    var tokens: Double
    var stamp: UInt64
  }

  package let perSecond: Int
  package let burst: Int
  package let capacity: Int
  private let buckets = Mutex<[PeerSource: Bucket]>([:])

  package init(perSecond: Int, burst: Int, capacity: Int = 10_000) {
    precondition(perSecond > 0 && burst >= 1, "a rate needs tokens")
    self.perSecond = perSecond
    self.burst = burst
    self.capacity = capacity
  }

  /// Takes `cost` tokens from `source`'s bucket at `now` (nanoseconds); nil when they were
  /// there, else the whole seconds until they will be (nothing is taken then). A cost above the
  /// burst is taken once the bucket is full, leaving it in debt.
  package func take(_ cost: Int, from source: PeerSource, now: UInt64) -> Int? {
    buckets.withLock { buckets in
      if buckets[source] == nil && buckets.count >= capacity { forget(&buckets, now: now) }
      var bucket = refilled(buckets[source], now: now)
      let needed = Double(min(cost, burst))
      guard bucket.tokens >= needed else {
        let seconds = (needed - bucket.tokens) / Double(perSecond)
        return max(1, Int(seconds.rounded(.up)))
      }
      bucket.tokens -= Double(cost)
      buckets[source] = bucket
      return nil
    }
  }

  private func refilled(_ bucket: Bucket?, now: UInt64) -> Bucket {
    guard let bucket else { return Bucket(tokens: Double(burst), stamp: now) }
    let elapsed = now > bucket.stamp ? Double(now - bucket.stamp) / 1_000_000_000 : 0
    return Bucket(
      tokens: min(Double(burst), bucket.tokens + elapsed * Double(perSecond)), stamp: max(now, bucket.stamp))
  }

  /// Makes room for a quarter of `capacity`, the fullest buckets first.
  private func forget(_ buckets: inout [PeerSource: Bucket], now: UInt64) {
    let fullest = buckets.map { ($0.key, refilled($0.value, now: now).tokens) }.sorted { $0.1 > $1.1 }
    for (source, _) in fullest.prefix(max(1, capacity / 4)) { buckets[source] = nil }
  }
}

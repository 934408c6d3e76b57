/// Latencies in nanoseconds, kept log-linearly: exact below 128 ns, then 64 buckets per doubling.
///
/// Any percentile read back is within about 1% of the recorded value, in fixed memory that
/// does not depend on how many requests a connection manages.
struct LatencyHistogram: Sendable {
  private static let exactBelow = 128
  private static let bucketsPerDoubling = 64
  /// Enough doublings to reach about 39 hours.
  private static let bucketCount = exactBelow + bucketsPerDoubling * 40

  private var counts = [Int](repeating: 0, count: LatencyHistogram.bucketCount)
  private(set) var total = 0

  mutating func record(_ nanoseconds: UInt64) {
    counts[Self.bucket(of: nanoseconds)] += 1
    total += 1
  }

  mutating func merge(_ other: LatencyHistogram) {
    for index in counts.indices { counts[index] += other.counts[index] }
    total += other.total
  }

  /// The latency at `fraction` (0.5 for the median), in nanoseconds; 0 when nothing was recorded.
  func percentile(_ fraction: Double) -> UInt64 {
    guard total > 0 else { return 0 }
    let rank = max(1, Int((fraction * Double(total)).rounded(.up)))
    var seen = 0
    for (index, count) in counts.enumerated() {
      seen += count
      if seen >= rank { return Self.value(of: index) }
    }
    return Self.value(of: counts.count - 1)
  }

  private static func bucket(of value: UInt64) -> Int {
    if value < UInt64(exactBelow) { return Int(value) }
    // Shift the value down until 7 significant bits remain; those name the bucket.
    let shift = UInt64.bitWidth - value.leadingZeroBitCount - 7
    let mantissa = Int(value >> UInt64(shift)) - bucketsPerDoubling
    return min(exactBelow + (shift - 1) * bucketsPerDoubling + mantissa, bucketCount - 1)
  }

  /// The middle of the bucket's range.
  private static func value(of bucket: Int) -> UInt64 {
    if bucket < exactBelow { return UInt64(bucket) }
    let shift = UInt64((bucket - exactBelow) / bucketsPerDoubling + 1)
    let mantissa = UInt64((bucket - exactBelow) % bucketsPerDoubling + bucketsPerDoubling)
    return (mantissa << shift) + (1 << shift) / 2
  }
}

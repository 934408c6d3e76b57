/// What connections saw inside the measured window; one per connection, merged at the end.
struct WorkerTally: Sendable {
  var requests = 0
  /// Replies inside the window that reported a failure: `ERR`, a RESP error, -1 or null.
  var errors = 0
  var latencies = LatencyHistogram()
  /// Why connections ended before the window did; empty when every one lasted.
  var failures: [String] = []

  mutating func merge(_ other: WorkerTally) {
    requests += other.requests
    errors += other.errors
    latencies.merge(other.latencies)
    failures += other.failures
  }
}

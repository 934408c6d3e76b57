/// Per change, nanoseconds from the publisher's send to the last watcher's receipt.
struct FanOutOutcome: Sendable {
  var watchers: Int
  var latencies = LatencyHistogram()
  var maximum: UInt64 = 0
  /// Changes the server refused (ERR, a RESP error); any makes the result invalid.
  var errors = 0

  init(watchers: Int) {
    self.watchers = watchers
  }

  mutating func record(_ nanoseconds: UInt64) {
    latencies.record(nanoseconds)
    maximum = max(maximum, nanoseconds)
  }
}

/// What a report row compares, and so which figures it reads and which way its ratio points.
enum ReportMetric: Sendable {
  /// Requests per second (higher is better) and server CPU µs per request (lower is better).
  case throughput
  /// Server RSS bytes per idle connection (lower is better).
  case memory
  /// Microseconds until the last watcher has the event, p50 and p99 (lower is better).
  case fanout
}

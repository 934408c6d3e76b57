/// What one `stockroom-bench` run does: load the server, hold idle connections, or time events.
enum BenchMode: String, CaseIterable, Sendable {
  /// Every connection repeats one request; requests per second, latency, CPU per request.
  case load
  /// Opens connections that then send nothing; the server's RSS growth per connection.
  case idle
  /// Watchers (WATCH / SUBSCRIBE) and one publisher; the time until the last watcher has each event.
  case fanout
}

/// The rows of issue 11's comparison, named as `Scripts/bench` writes them in its results file.
enum ReportRow: String, CaseIterable, Sendable {
  case ping1
  case ping16
  case stock1
  case orderAlways = "order_always"
  case orderBatch = "order_batch"
  case idle
  case fanout

  var title: String {
    switch self {
    case .ping1: "PING, 1 in flight"
    case .ping16: "PING, 16 pipelined"
    case .stock1: "stock read, 1 in flight (STOCK banana / GET banana)"
    case .orderAlways: "durable order, 1 in flight (--fsync always / EVAL, appendfsync always)"
    case .orderBatch: "order, batched fsync (--fsync batch / EVAL, appendfsync everysec)"
    case .idle: "idle connections: RSS bytes per connection"
    case .fanout: "WATCH fan-out (WATCH / SUBSCRIBE): µs to the last watcher, p50 / p99"
    }
  }

  var metric: ReportMetric {
    switch self {
    case .ping1, .ping16, .stock1, .orderAlways, .orderBatch: .throughput
    case .idle: .memory
    case .fanout: .fanout
    }
  }
}

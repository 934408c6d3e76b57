/// The rows of issue 11's comparison, named as `Scripts/bench` writes them in its results file.
enum ReportRow: String, CaseIterable, Sendable {
  case ping1
  /// PING one in flight against the C ceiling alone, printed under the ping1 row.
  case ceiling
  case ping16
  case stock1
  case orderAlways = "order_always"
  case orderBatch = "order_batch"
  case idle
  case fanout
  case ping1TLS = "ping1_tls"
  case orderTLS = "order_tls"

  var title: String {
    switch self {
    case .ping1: "PING, 1 in flight"
    case .ceiling: "C ceiling: PING, 1 in flight, a C epoll server answering each line (stockroom-ceiling)"
    case .ping16: "PING, 16 pipelined"
    case .stock1: "stock read, 1 in flight (STOCK banana / GET banana)"
    case .orderAlways: "durable order, 1 in flight (--fsync always / EVAL, appendfsync always)"
    case .orderBatch: "order, batched fsync (--fsync batch / EVAL, appendfsync everysec)"
    case .idle: "idle connections: RSS bytes per connection"
    case .fanout: "WATCH fan-out (WATCH / SUBSCRIBE): µs to the last watcher, p50 / p99"
    case .ping1TLS: "TLS: PING, 1 in flight (--tls-port / redis --tls-port)"
    case .orderTLS: "TLS: durable order, 1 in flight (--fsync always / EVAL, appendfsync always)"
    }
  }

  var metric: ReportMetric {
    switch self {
    case .ping1, .ceiling, .ping16, .stock1, .orderAlways, .orderBatch, .ping1TLS, .orderTLS: .throughput
    case .idle: .memory
    case .fanout: .fanout
    }
  }

  /// The servers a row is measured on: both, but the ceiling's row, which is the ceiling alone.
  var targets: [BenchTarget] { self == .ceiling ? [.ceiling] : [.stockroom, .redis] }

  /// `targets` as the result lines name them.
  var servers: [String] { targets.map(\.rawValue) }
}

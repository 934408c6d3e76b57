/// Which server the load goes to; each speaks its own dialect.
enum BenchTarget: String, CaseIterable, Sendable {
  case stockroom
  case redis
  /// `stockroom-ceiling`, the C epoll server that answers every line as stockroomd answers PING:
  /// the least any server could spend on the PING rows here.
  case ceiling

  var dialect: any Dialect {
    switch self {
    case .stockroom, .ceiling: StockroomDialect()
    case .redis: RedisDialect()
    }
  }
}

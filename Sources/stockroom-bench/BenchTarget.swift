/// Which server the load goes to; each speaks its own dialect.
enum BenchTarget: String, CaseIterable, Sendable {
  case stockroom
  case redis

  var dialect: any Dialect {
    switch self {
    case .stockroom: StockroomDialect()
    case .redis: RedisDialect()
    }
  }
}

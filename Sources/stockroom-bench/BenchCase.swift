/// The request every connection repeats: a no-op, a read of one level, or a stock-taking order.
enum BenchCase: String, CaseIterable, Sendable {
  case ping
  case stock
  case order
}

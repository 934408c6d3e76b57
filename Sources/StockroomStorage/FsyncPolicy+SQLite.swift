import StockroomDomain

extension FsyncPolicy {
  /// The `PRAGMA synchronous` level that gives this policy in SQLite.
  var synchronousPragma: String {
    switch self {
    case .always: "FULL"
    case .batch: "NORMAL"
    case .off: "OFF"
    }
  }
}

/// Which store keeps a durable shop.
public enum JournalKind: String, Sendable {
  case sqlite
  case postgresql

  /// The key the start-up log gives the location under: a file's `path`, a database's `url`.
  public var locationKey: String {
    switch self {
    case .sqlite: "path"
    case .postgresql: "url"
    }
  }
}

/// When the store forces committed changes to the disk, as Redis's appendfsync does for its log
/// (SQLite's synchronous pragma; PostgreSQL's commits or a flush barrier). A value the engine
/// reports in INFO and the storage layer acts on, so it lives here, below both.
///
/// All three survive a crash of the server process: a commit is in the operating system's hands
/// before any reply is sent. They differ on power loss or a kernel crash.
public enum FsyncPolicy: Sendable, Equatable, CustomStringConvertible {
  /// Every commit is on the disk before its replies go out. Loses nothing acknowledged.
  case always
  /// Commits are forced to the disk at least every `milliseconds`. Loses at most that window.
  case batch(milliseconds: Int)
  /// The operating system writes when it likes (Linux: within about 30 s).
  case off

  public var description: String {
    switch self {
    case .always: "always"
    case .batch(let milliseconds): "batch(\(milliseconds)ms)"
    case .off: "off"
    }
  }

}

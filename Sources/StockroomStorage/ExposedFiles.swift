#if canImport(Glibc)
  import Glibc
#endif

/// The parts of a data directory that other users of the machine may read or write: the
/// directory itself and the database with its -wal and -shm files. Like PostgreSQL, which
/// refuses a data directory group or others can reach, a server is started only on a shop that
/// is its user's alone (directory 0700, files 0600).
public struct ExposedFiles: Sendable, CustomStringConvertible {
  public struct Exposure: Sendable, Equatable {
    public var path: String
    public var mode: UInt32
    public var isDirectory: Bool
  }

  public let exposures: [Exposure]

  /// Looks at `directory` and the database files in it; a part that does not exist exposes nothing.
  public init(directory: String) {
    let database = ShopDatabase.path(in: directory)
    var found: [Exposure] = []
    for (path, isDirectory) in [
      (directory, true), (database, false), (database + "-wal", false), (database + "-shm", false),
    ] {
      var info = stat()
      guard stat(path, &info) == 0, info.st_mode & 0o077 != 0 else { continue }
      found.append(
        Exposure(path: AccessAdvice.absolute(path), mode: UInt32(info.st_mode & 0o7777), isDirectory: isDirectory))
    }
    exposures = found
  }

  public var isEmpty: Bool { exposures.isEmpty }

  /// The shell command that makes every exposed part its owner's alone.
  public var fix: String {
    var commands: [String] = []
    let folders = exposures.filter(\.isDirectory).map { AccessAdvice.quoted($0.path) }
    let files = exposures.filter { !$0.isDirectory }.map { AccessAdvice.quoted($0.path) }
    if !folders.isEmpty { commands.append("chmod 700 " + folders.joined(separator: " ")) }
    if !files.isEmpty { commands.append("chmod 600 " + files.joined(separator: " ")) }
    return commands.joined(separator: " && ")
  }

  public var description: String {
    exposures.map { "\($0.path) (mode \(AccessAdvice.octal(mode_t($0.mode))))" }.joined(separator: ", ")
  }
}

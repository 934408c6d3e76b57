import StockroomSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A throw-away PostgreSQL server for tests and the bench's PostgreSQL section: its own cluster in a temporary folder, listening
/// on a free loopback port and on a socket in that folder, with trust authentication.
///
/// PostgreSQL refuses to run as root, so under root the cluster belongs to the `postgres`
/// user. A watchdog process stops the server and removes the folder when the test process
/// ends however it ends (even `kill -9`), so nothing outlives the tests or the bench.
public final class PostgresCluster: Sendable {
  public let directory: String
  public let port: UInt16
  /// A libpq URL for database `postgres` as the cluster's superuser `stockroom`.
  public var url: String { "postgresql://stockroom@127.0.0.1:\(port)/postgres" }

  private let bin: String
  private let owner: String?
  private let watchdog: pid_t

  /// One cluster for the whole test process, made when a test first asks: each costs about
  /// two seconds, and tests keep apart by making a database each.
  public static let shared = Result { try PostgresCluster() }

  /// Makes and starts a cluster; throws with PostgreSQL's own log when it cannot.
  public init() throws {
    bin = try Self.binaries()
    owner = getuid() == 0 ? "postgres" : nil
    var template = Array("/tmp/stockroom-pg-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw Subprocess.Failure(description: "mkdtemp failed") }
    directory = String(cString: made)
    port = try Self.freePort()
    if owner != nil {
      // The server's user must own its folder; `chown` is the plain way (no Foundation here).
      guard try Subprocess.run("/bin/chown", ["postgres:postgres", directory], environment: [:]) == 0 else {
        throw Subprocess.Failure(description: "cannot give \(directory) to the postgres user")
      }
    }
    watchdog = try Self.startWatchdog(directory: directory, bin: bin, owner: owner)
    try run("initdb", ["-D", "\(directory)/data", "-U", "stockroom", "-A", "trust", "-E", "UTF8", "--no-sync"])
    try start()
  }

  /// Starts the server (again, after `stop`), waiting until it takes connections.
  public func start() throws {
    let options =
      "-c listen_addresses=127.0.0.1 -c port=\(port) -c unix_socket_directories=\(directory) -c max_connections=200"
    try run("pg_ctl", ["-D", "\(directory)/data", "-l", "\(directory)/log", "-w", "-t", "60", "-o", options, "start"])
  }

  /// Stops the server at once, as a crash or a pulled plug would (`immediate` skips the
  /// shutdown checkpoint; PostgreSQL recovers from its log on the next start).
  public func stop() throws {
    try run("pg_ctl", ["-D", "\(directory)/data", "-m", "immediate", "-w", "-t", "60", "stop"])
  }

  /// Stops the server and removes the cluster; the watchdog would do the same at exit.
  public func remove() {
    kill(watchdog, SIGTERM)
    var status: Int32 = 0
    while waitpid(watchdog, &status, 0) < 0 && errno == EINTR {}
  }

  /// The server's log, for a failing test to show.
  public func log() -> String { TextFile.read("\(directory)/log") }

  private func run(_ program: String, _ arguments: [String]) throws {
    let errors = "\(directory)/\(program).err"
    let (path, argv) = Self.command("\(bin)/\(program)", arguments, owner: owner)
    let status = try Subprocess.run(path, argv, environment: ["PATH": "/usr/bin:/bin"], stderr: errors)
    guard status == 0 else {
      throw Subprocess.Failure(
        description: "\(program) failed (\(status)): \(TextFile.read(errors))\nserver log:\n\(log())")
    }
  }

  private static func command(_ program: String, _ arguments: [String], owner: String?) -> (String, [String]) {
    guard let owner else { return (program, arguments) }
    return ("/usr/sbin/runuser", ["-u", owner, "--", program] + arguments)
  }

  /// Debian keeps the server programs out of PATH, one folder per major version.
  private static func binaries() throws -> String {
    for version in (12...30).reversed() {
      let folder = "/usr/lib/postgresql/\(version)/bin"
      if access("\(folder)/initdb", X_OK) == 0 && access("\(folder)/pg_ctl", X_OK) == 0 { return folder }
    }
    throw Subprocess.Failure(
      description: "no PostgreSQL server found in /usr/lib/postgresql/*/bin: install Debian's postgresql package")
  }

  /// A port nothing listens on now. Another program could take it before PostgreSQL does; then
  /// `pg_ctl start` fails and says so, which is rare enough on a test machine. The bench picks
  /// its Redis and TLS ports here too.
  public static func freePort() throws -> UInt16 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw Subprocess.Failure(description: "socket failed") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
        bind(fd, generic, length) == 0 && getsockname(fd, generic, &length) == 0
      }
    }
    guard bound else { throw Subprocess.Failure(description: "cannot find a free port") }
    return UInt16(bigEndian: address.sin_port)
  }

  /// A shell that waits for this process (or for SIGTERM), then stops the server and removes
  /// the folder. It is not waited for here: `remove` or the end of the test process ends it.
  private static func startWatchdog(directory: String, bin: String, owner: String?) throws -> pid_t {
    let stop = command(
      "\(bin)/pg_ctl", ["-D", "\(directory)/data", "-m", "immediate", "-w", "-t", "30", "stop"], owner: owner)
    let stopLine = ([stop.0] + stop.1).map { "'\($0)'" }.joined(separator: " ")
    let script = """
      finish() { \(stopLine) >/dev/null 2>&1; rm -rf '\(directory)'; exit 0; }
      trap finish TERM
      while kill -0 \(getpid()) 2>/dev/null; do sleep 0.5 & wait $!; done
      finish
      """
    return try Subprocess.start("/bin/sh", ["-c", script], environment: ["PATH": "/usr/bin:/bin"])
  }
}

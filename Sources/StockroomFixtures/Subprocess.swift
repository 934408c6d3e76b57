import StockroomSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// posix_spawn and waitpid, with stdin, stdout and stderr redirected to files.
///
/// Foundation's Process waits through a run loop and leaves the child the test process's
/// signal mask; here the wait is a plain waitpid and the child starts with clean signals.
public enum Subprocess {
  public struct Failure: Error, CustomStringConvertible {
    public var description: String
    public init(description: String) { self.description = description }
  }

  /// Runs the program to its end and returns its exit status (128 + signal when killed).
  public static func run(
    _ path: String, _ arguments: [String], environment: [String: String],
    stdin: String = "/dev/null", stdout: String = "/dev/null", stderr: String = "/dev/null"
  ) throws -> Int32 {
    let pid = try start(path, arguments, environment: environment, stdin: stdin, stdout: stdout, stderr: stderr)
    var waitStatus: Int32 = 0
    while waitpid(pid, &waitStatus, 0) < 0 {
      guard errno == EINTR else { throw Failure(description: "waitpid failed for \(path)") }
    }
    let signal = waitStatus & 0x7F
    return signal == 0 ? (waitStatus >> 8) & 0xFF : 128 + signal
  }

  /// Starts the program and returns its process id; the caller waits for it.
  public static func start(
    _ path: String, _ arguments: [String], environment: [String: String],
    stdin: String = "/dev/null", stdout: String = "/dev/null", stderr: String = "/dev/null"
  ) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
    let envp: [UnsafeMutablePointer<CChar>?] =
      environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp { free(pointer) }
    }
    // A child inherits the spawning thread's blocked signals and ignored ones (the server
    // ignores SIGPIPE); tmux's kill-server is a SIGTERM to itself, so give it clean ones.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var empty = sigset_t()
    sigemptyset(&empty)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGPIPE, SIGTERM, SIGHUP, SIGINT, SIGCHLD] { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigmask(&attributes, &empty)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var pid: pid_t = 0
    let status = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
    guard status == 0 else {
      throw Failure(description: "cannot start \(path): \(String(cString: strerror(status)))")
    }
    return pid
  }
}

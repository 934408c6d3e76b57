#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// posix_spawn with the signals a child should start with, and waitpid, for every program that
/// starts another (the REPL's pager and editor, the bench's servers, the tests' tools).
///
/// A child inherits the spawning thread's blocked signals and ignored ones (the client and the
/// server ignore SIGPIPE, Foundation's Process leaves the test process's mask), and a child
/// that inherits them cannot be stopped with Ctrl-C, `q` or a SIGTERM the way its user expects.
public enum Spawn {
  /// Set back to their default actions in the child.
  static let defaulted = [SIGPIPE, SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGCHLD, SIGTSTP, SIGTTOU, SIGTTIN]

  /// Starts `path` with `arguments` as its whole argv (the program's name first), the file
  /// actions given, and `environment` (nil: this process's); returns the child's process id.
  public static func start(
    _ path: String, arguments: [String], environment: [String: String]? = nil,
    actions: inout posix_spawn_file_actions_t
  ) throws(Errno) -> pid_t {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var empty = sigset_t()
    sigemptyset(&empty)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in defaulted { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigmask(&attributes, &empty)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    let envp: [UnsafeMutablePointer<CChar>?]? = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp ?? [] { free(pointer) }
    }
    var pid: pid_t = 0
    let status: Int32
    if var envp {
      status = posix_spawn(&pid, path, &actions, &attributes, argv, &envp)
    } else {
      status = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
    }
    guard status == 0 else { throw Errno(status) }
    return pid
  }

  /// Waits for `pid` to end: its exit status, or 128 + the signal that killed it.
  public static func wait(for pid: pid_t) throws(Errno) -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      guard errno == EINTR else { throw Errno.current }
    }
    let signal = status & 0x7F
    return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
  }
}

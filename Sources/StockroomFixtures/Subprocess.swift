import CStockroomSystem
import StockroomSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// posix_spawn and waitpid, with stdin, stdout and stderr redirected to files.
///
/// Foundation's Process waits through a run loop and leaves the child the test process's
/// signal mask; here the wait is a plain waitpid and the child starts with clean signals
/// (`Spawn`, which the REPL's pager and editor start through too).
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
    do {
      return try Spawn.wait(for: pid)
    } catch {
      throw Failure(description: "waitpid failed for \(path): \(error)")
    }
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
    // Nothing else of the test process's: a descriptor some library opened without close-on-exec
    // would otherwise live on in a long-running tool (a cluster's watchdog lives as long as the
    // tests), and a socket or pipe the tests close would never reach its end.
    _ = sr_spawn_close_from(&actions, 3)
    do {
      return try Spawn.start(path, arguments: [path] + arguments, environment: environment, actions: &actions)
    } catch {
      throw Failure(description: "cannot start \(path): \(error)")
    }
  }
}

import StockroomSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A program the REPL hands the terminal to for a while: the pager, the editor.
///
/// Started through `Spawn`, with a clean signal mask and dispositions: the client ignores
/// SIGPIPE, and a pager that inherited it could not be left with `q` as its user expects.
struct ChildProcess {
  let pid: pid_t
  /// The write end of the child's stdin, when it reads from us.
  let input: Int32?

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// Runs `command` with `shell -c` (`/bin/sh` unless the caller says, as the pager and editor
  /// do: `$PAGER` and `$EDITOR` may carry their own options); `arguments` become the script's
  /// `$1`, `$2`, ... With `output`, the child's stdout and stderr go to that descriptor instead
  /// of the terminal.
  static func shell(
    _ command: String, arguments: [String] = [], pipeInput: Bool, shell: String = "/bin/sh", output: Int32? = nil
  ) throws(Failure) -> ChildProcess {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if let output {
      posix_spawn_file_actions_adddup2(&actions, output, 1)
      posix_spawn_file_actions_adddup2(&actions, output, 2)
    }
    let argv = [name(of: shell), "-c", command, name(of: shell)] + arguments
    guard pipeInput else { return try start(shell, argv, actions: &actions, input: nil) }
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else {
      throw Failure(description: "cannot make a pipe: \(Errno.current)")
    }
    // The client has one thread, so nothing can spawn between pipe and these.
    _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
    _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
    // dup2 clears close-on-exec on the copy, so only the child's stdin stays open in it; the
    // read end is the child's alone once it has started.
    posix_spawn_file_actions_adddup2(&actions, ends[0], 0)
    defer { close(ends[0]) }
    return try start(shell, argv, actions: &actions, input: ends[1])
  }

  /// `shell` on its own, interactive, for `:!` with nothing after it.
  static func interactive(_ shell: String) throws(Failure) -> ChildProcess {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    return try start(shell, [name(of: shell)], actions: &actions, input: nil)
  }

  /// The user's `$SHELL`, else `/bin/sh`.
  static func userShell(environment: [String: String]) -> String {
    environment["SHELL"].flatMap { $0.isEmpty ? nil : $0 } ?? "/bin/sh"
  }

  private static func name(of path: String) -> String { String(path.split(separator: "/").last ?? "sh") }

  private static func start(
    _ path: String, _ argv: [String], actions: inout posix_spawn_file_actions_t, input: Int32?
  ) throws(Failure) -> ChildProcess {
    do {
      let pid = try Spawn.start(path, arguments: argv, actions: &actions)
      return ChildProcess(pid: pid, input: input)
    } catch {
      if let input { close(input) }
      throw Failure(description: "cannot start \(path): \(error)")
    }
  }

  /// Writes all of `text` to the child's stdin and closes it; stops quietly when the child
  /// stopped reading (a pager left with `q` before the end).
  func feed(_ text: String) {
    guard let input else { return }
    defer { close(input) }
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeMutableBytes { raw in
        write(input, raw.baseAddress! + offset, raw.count - offset)
      }
      if written < 0 {
        if errno == EINTR { continue }
        return
      }
      offset += written
    }
  }

  /// Waits for the child to end: its exit status, or 128 + the signal that killed it (127 when
  /// it cannot be waited for).
  func wait() -> Int32 { (try? Spawn.wait(for: pid)) ?? 127 }

  /// Runs `body` with SIGINT and SIGQUIT ignored here, as system(3) does: Ctrl-C in the pager
  /// or editor is theirs to handle and must not end the REPL behind them.
  static func whileForeground<T>(_ body: () throws -> T) rethrows -> T {
    let oldInterrupt = signal(SIGINT, SIG_IGN)
    let oldQuit = signal(SIGQUIT, SIG_IGN)
    defer {
      signal(SIGINT, oldInterrupt)
      signal(SIGQUIT, oldQuit)
    }
    return try body()
  }
}

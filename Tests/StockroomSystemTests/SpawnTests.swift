import Foundation
import StockroomSystem
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A child starts with no blocked signals and none ignored, whatever the parent blocks or
/// ignores; and its end is read back as the shell reads it.
@Suite(.serialized, .timeLimit(.minutes(30))) struct SpawnTests {
  /// Runs `script` with /bin/sh, stdout to a file; returns its exit status and what it printed.
  func run(_ script: String) throws -> (status: Int32, output: String) {
    try run("/bin/sh", ["sh", "-c", script])
  }

  /// Runs `path` with `arguments`, stdout to a file, started by `Spawn` or, with `bare`, by
  /// `posix_spawn` with no attributes at all; returns its exit status and what it printed.
  func run(_ path: String, _ arguments: [String], bare: Bool = false) throws -> (status: Int32, output: String) {
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("spawn-\(getpid())-\(UUID()).txt").path
    defer { unlink(output) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    let pid: pid_t
    if bare {
      var started: pid_t = 0
      let argv = arguments.map { strdup($0) } + [nil]
      defer { for argument in argv { free(argument) } }
      try #require(posix_spawn(&started, path, &actions, nil, argv, environ) == 0)
      pid = started
    } else {
      pid = try Spawn.start(path, arguments: arguments, actions: &actions)
    }
    let status = try Spawn.wait(for: pid)
    return (status, (try? String(contentsOfFile: output, encoding: .utf8)) ?? "")
  }

  /// The mask of `field` (SigBlk, SigIgn) in the child's /proc status.
  func mask(_ field: String, in status: String) -> UInt64? {
    status.split(separator: "\n").first { $0.hasPrefix(field + ":") }
      .flatMap { UInt64($0.split(separator: "\t").last ?? "", radix: 16) }
  }

  @Test func childStartsWithCleanSignalsWhateverTheParentBlocksOrIgnores() throws {
    var blocked = sigset_t()
    sigemptyset(&blocked)
    sigaddset(&blocked, SIGTERM)
    sigaddset(&blocked, SIGINT)
    var previous = sigset_t()
    pthread_sigmask(SIG_BLOCK, &blocked, &previous)
    let oldPipe = signal(SIGPIPE, SIG_IGN)
    defer {
      signal(SIGPIPE, oldPipe)
      pthread_sigmask(SIG_SETMASK, &previous, nil)
    }
    // cat itself, not through a shell: a shell may reset its own mask, and then a child that
    // inherited the parent's would look clean.
    let child = try run("/bin/cat", ["cat", "/proc/self/status"])
    #expect(child.status == 0)
    #expect(mask("SigBlk", in: child.output) == 0, "the child inherited blocked signals")
    // The control: started with no attributes, cat does show the parent's mask, so the check
    // above sees what it is looking for.
    let bare = try run("/bin/cat", ["cat", "/proc/self/status"], bare: true)
    let inherited = try #require(mask("SigBlk", in: bare.output))
    #expect(inherited & (1 << UInt64(SIGTERM - 1)) != 0, "a bare posix_spawn should have passed SIGTERM blocked")
    let ignored = try #require(mask("SigIgn", in: child.output))
    #expect(ignored & (1 << UInt64(SIGPIPE - 1)) == 0, "the child inherited SIGPIPE ignored")
  }

  @Test func exitStatusAndSignalAreReadAsTheShellReadsThem() throws {
    #expect(try run("exit 3").status == 3)
    #expect(try run("kill -KILL $$").status == 128 + SIGKILL)
  }

  @Test func aProgramThatIsNotThereIsAnErrno() throws {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    #expect(throws: Errno(ENOENT)) {
      _ = try Spawn.start("/nonexistent/program", arguments: ["x"], actions: &actions)
    }
  }
}

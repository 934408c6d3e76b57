import Foundation
import Testing

@testable import StockroomStorage

#if canImport(Glibc)
  import Glibc
#endif

/// A lock belongs to the open file, and a process spawned while it is open shares the open file
/// until its exec closes the copy; the tests spawn from many threads at once, so a lock closed
/// in that window stayed held against the same process's next open (CI saw it once).
@Suite("A let-go file lock is free while a child still shares its descriptor")
struct FileLockReleaseTests {
  @Test("the next open locks the file although a child still has the old descriptor")
  func unlockReachesSharedDescriptor() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-lock-\(UUID())").path
    defer { unlink(path) }
    var held: FileLock? = try FileLock(path: path, create: true)
    #expect(held?.tryLock() == true)
    // A child that keeps the descriptor past its exec stands for one caught between fork and exec.
    var ends: [Int32] = [-1, -1]
    // Close-on-exec: a program another test spawns meanwhile would keep the writer open for good.
    try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    let kept: Int32 = held?.descriptor == 200 ? 201 : 200
    posix_spawn_file_actions_adddup2(&actions, held?.descriptor ?? -1, kept)
    posix_spawn_file_actions_adddup2(&actions, ends[0], 0)
    posix_spawn_file_actions_addclose(&actions, ends[1])
    let argv: [UnsafeMutablePointer<CChar>?] = [strdup("cat"), nil]
    defer { free(argv[0]) }
    var child: pid_t = 0
    try #require(posix_spawn(&child, "/bin/cat", &actions, nil, argv, environ) == 0)
    close(ends[0])
    defer {
      // The end of its input stops cat if this process dies first; here it is stopped at once.
      close(ends[1])
      kill(child, SIGKILL)
      var status: Int32 = 0
      _ = waitpid(child, &status, 0)
    }
    #expect(FileLock.flockHolders(of: held?.descriptor ?? -1) == [getpid()])
    held = nil
    let again = try FileLock(path: path, create: false)
    #expect(again.tryLock())
  }
}

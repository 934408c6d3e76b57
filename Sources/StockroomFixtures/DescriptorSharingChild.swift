import CStockroomSystem
import StockroomSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A child process that keeps a copy of one of this process's descriptors past its exec: it
/// stands for a child another thread spawns at the wrong moment, which shares every descriptor
/// until its exec closes the close-on-exec ones. A lock or a listening socket let go here must
/// be free although such a copy lives on.
///
/// The child is `cat` reading a pipe whose writer only this object holds: if the test process
/// dies first, cat sees the end and exits; `stop()` (or the last reference) kills it at once.
public final class DescriptorSharingChild {
  private let pid: pid_t
  private var writer: Int32

  /// Starts the child with a copy of `descriptor` (at a number of its own, so exec keeps it).
  public init(sharing descriptor: Int32) throws {
    var ends: [Int32] = [-1, -1]
    // Close-on-exec: a program another test spawns meanwhile would keep the writer open for good.
    guard sr_pipe_cloexec(&ends) == 0 else { throw Errno.current }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    // dup2 clears close-on-exec on the copies: the shared descriptor and cat's input.
    posix_spawn_file_actions_adddup2(&actions, descriptor, descriptor == 200 ? 201 : 200)
    posix_spawn_file_actions_adddup2(&actions, ends[0], 0)
    defer { close(ends[0]) }
    do {
      pid = try Spawn.start("/bin/cat", arguments: ["cat"], actions: &actions)
    } catch {
      close(ends[1])
      throw error
    }
    writer = ends[1]
  }

  /// Kills the child and waits for it; a second call does nothing.
  public func stop() {
    guard writer >= 0 else { return }
    close(writer)
    writer = -1
    kill(pid, SIGKILL)
    _ = try? Spawn.wait(for: pid)
  }

  deinit { stop() }
}

import Foundation
import StockroomSystem
import StockroomTransport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A stopped server's port is free at once, though the tests spawn programs from many threads and
/// a child spawned at that moment shares the listening socket until its exec closes the copy:
/// closed without a shutdown, the socket listened on in the child, and a server started again
/// on the same port (as the client's reconnection tests do) was refused it.
@Suite("A stopped server lets its port go")
struct ListenerReleaseTests {
  /// The listening socket bound to 127.0.0.1:`port` in this process.
  static func listeningDescriptor(port: UInt16) -> Int32? {
    let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return open.compactMap { Int32($0) }.first { fd in
      var listening: Int32 = 0
      var size = socklen_t(MemoryLayout<Int32>.size)
      guard getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &size) == 0, listening == 1 else { return false }
      var address = sockaddr_in()
      var length = socklen_t(MemoryLayout<sockaddr_in>.size)
      let named = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
      }
      return named == 0 && address.sin_family == sa_family_t(AF_INET) && UInt16(bigEndian: address.sin_port) == port
    }
  }

  @Test("the port can be listened on again while a child still has the old socket")
  func portIsFreeWhileChildSharesSocket() throws {
    let shop = try TestServer()
    let listening = try #require(Self.listeningDescriptor(port: shop.port))
    // A child that keeps the socket past its exec stands for one caught between fork and exec.
    var ends: [Int32] = [-1, -1]
    // Close-on-exec: a program another test spawns meanwhile would keep the writer open for good.
    try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    let kept: Int32 = listening == 200 ? 201 : 200
    posix_spawn_file_actions_adddup2(&actions, listening, kept)
    posix_spawn_file_actions_adddup2(&actions, ends[0], 0)
    posix_spawn_file_actions_addclose(&actions, ends[1])
    let child = try Spawn.start("/bin/cat", arguments: ["cat"], actions: &actions)
    close(ends[0])
    defer {
      // The end of its input stops cat if this process dies first; here it is stopped at once.
      close(ends[1])
      kill(child, SIGKILL)
      _ = try? Spawn.wait(for: child)
    }
    shop.server.stop()
    let again = try ListeningSocket.open(try #require(SocketAddress(host: "127.0.0.1", port: shop.port)), backlog: 8)
    close(again.fd)
  }
}

import Foundation
import StockroomFixtures
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
@Suite("A stopped server lets its port go", .timeLimit(.minutes(30)))
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
    let child = try DescriptorSharingChild(sharing: listening)
    defer { child.stop() }
    shop.server.stop()
    let again = try ListeningSocket.open(try #require(SocketAddress(host: "127.0.0.1", port: shop.port)), backlog: 8)
    close(again.fd)
  }
}

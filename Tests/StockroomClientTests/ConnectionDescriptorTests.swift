import Foundation
import StockroomClient
import StockroomTransport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The REPL starts children (the pager, `$EDITOR`); none may inherit the server connection.
@Suite("The client's socket", .timeLimit(.minutes(30)))
struct ConnectionDescriptorTests {
  /// An inherited socket outlives the REPL's close: the server keeps the session, and a pager
  /// left running holds it open.
  @Test("is close-on-exec, so a pager or editor the REPL starts does not hold the connection")
  func closeOnExec() throws {
    let server = try ShopServer()
    let connection = try ServerLink.open(host: "127.0.0.1", port: server.port)
    defer { connection.close() }
    let flags = fcntl(connection.fd, F_GETFD)
    #expect(flags >= 0 && flags & FD_CLOEXEC != 0, "flags \(flags)")
  }
}

import Foundation
import StockroomServer
import StockroomTransport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Sockets held open on the metrics port and never used must not keep a scraper out.
@Suite("/metrics answers while idle sockets crowd its port", .timeLimit(.minutes(30)))
struct MetricsFloodTests {
  /// Opens `count` connections to `port` that never send a byte, from `hosts` loopback addresses
  /// (127.0.0.2 and up, each standing for another host) in turn. The connects do not block: past
  /// the kernel's backlog a connect waits for the server, and the test must not.
  private func silentSockets(_ count: Int, hosts: Int, port: UInt16) throws -> [Int32] {
    try (0..<count).map { index in
      let fd = socket(
        AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
      try #require(Loopback.bind(fd, to: "127.0.0.\(2 + index % hosts)") == 0, "bind: errno \(errno)")
      _ = Loopback.connect(fd, port: port)
      return fd
    }
  }

  @Test(
    "with silent sockets open from one other host or from many (16 used to be enough to blind it), five scrapes in a row are answered",
    arguments: [(100, 1), (100, 20), (400, 80)])
  func scrapesThroughIdleSockets(sockets: Int, hosts: Int) throws {
    let server = try TestServer { $0.http = ListenAddress(host: "127.0.0.1", port: 0) }
    let port = try server.server.startHTTP()
    defer { withExtendedLifetime(server) {} }
    let silent = try silentSockets(sockets, hosts: hosts, port: port)
    defer { for fd in silent { close(fd) } }
    for attempt in 1...5 {
      // Waiting behind the idle sockets, each 16 of them held for the 5 s request timeout, took
      // some 25 s for 100; the 15 s receive timeout is only the bound on a failure.
      let answer = try HTTPExchange.get("/metrics", port: port)
      #expect(answer.status == 200, "scrape \(attempt)")
      #expect(answer.body.contains("stockroom_connections"), "scrape \(attempt)")
    }
  }
}

import Foundation
import StockroomServer
import StockroomTransport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Request heads trickled a byte at a time (HTTP slowloris, issue 41): libmicrohttpd's timeout
/// restarts at every byte, so only a deadline of the server's own closes them; and while many
/// hosts hold every place, a scraper from elsewhere still gets one.
@Suite("HTTP: trickled request heads", .timeLimit(.minutes(30)))
struct HTTPSlowHeadTests {
  private func httpServer() throws -> (TestServer, UInt16) {
    let server = try TestServer { $0.http = ListenAddress(host: "127.0.0.1", port: 0) }
    return (server, try server.server.startHTTP())
  }

  @Test("a head trickled a byte a second, well inside the 10 s without progress, is answered 408 and closed")
  func trickledHeadIsClosed() throws {
    let (server, port) = try httpServer()
    defer { withExtendedLifetime(server) {} }
    let fd = try HTTPExchange.connected(port: port, timeout: 5, from: "127.0.0.2")
    defer { close(fd) }
    _ = HeadTrickler.headStart.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    // One more byte each time a second passes with nothing from the server, for at most 30 s
    // (the bound the fix must meet; the deadline is 10 s).
    var answer: [UInt8] = []
    var closed = false
    for _ in 0..<30 where !closed {
      var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      if poll(&entry, 1, 1000) == 0 {
        _ = "a".withCString { send(fd, $0, 1, Int32(MSG_NOSIGNAL)) }
        continue
      }
      var chunk = [UInt8](repeating: 0, count: 4096)
      let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
      if count > 0 { answer += chunk[..<count] } else if count == 0 || errno != EAGAIN { closed = true }
    }
    #expect(closed, "a trickled head was still open after 30 s")
    #expect(String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 408 "))
  }

  @Test("/metrics from 127.0.0.1 answers 8 of 8 while 20 other hosts trickle 30 heads each (600, past the 512 places)")
  func scrapesWhileHeadsTrickle() throws {
    let (server, port) = try httpServer()
    defer { withExtendedLifetime(server) {} }
    let trickler = HeadTrickler(port: port, hosts: 20, perHost: 30)
    let thread = Thread { trickler.run() }
    thread.start()
    defer { trickler.stop() }
    // Established: every socket connected and written to in three rounds since.
    try waitUntil(timeout: 60) { trickler.rounds >= 3 }
    var served = 0
    for _ in 0..<8 {
      if let answer = try? HTTPExchange.get("/metrics", port: port), answer.status == 200 { served += 1 }
      let before = trickler.rounds
      try waitUntil(timeout: 30) { trickler.rounds > before }
    }
    #expect(served == 8, "\(served) of 8 scrapes answered")
  }
}

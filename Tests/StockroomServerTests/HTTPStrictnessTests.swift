import Foundation
import StockroomServer
import StockroomTransport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The smaller HTTP findings of issue 41: requests two parsers would read differently, a board
/// open to other machines without a word, a read-only store shown as up, and `--http` given
/// under both its names.
@Suite("HTTP: ambiguous requests, exposure, the store's state, one address", .timeLimit(.minutes(30)))
struct HTTPStrictnessTests {
  @Test(
    "a space before a header's colon, two Content-Lengths or Hosts, none, a bare CR or NUL in a value: 400, read strictly"
  )
  func ambiguousHeadsRefused() throws {
    let server = try TestServer { $0.http = ListenAddress(host: "127.0.0.1", port: 0) }
    defer { withExtendedLifetime(server) {} }
    let port = try server.server.startHTTP()
    let host = "Host: 127.0.0.1\r\n"
    let requests = [
      "GET /metrics HTTP/1.1\r\n\(host)Transfer-Encoding : chunked\r\n\r\n0\r\n\r\n",
      "GET /metrics HTTP/1.1\r\n\(host)Content-Length: 0\r\nContent-Length: 5\r\n\r\nhello",
      "GET /metrics HTTP/1.1\r\n\(host)X-Note: one\rInjected: two\r\n\r\n",
      "GET /events HTTP/1.1\r\n\(host)X-Note: one\u{1}two\r\n\r\n",
      "GET /metrics HTTP/1.1\r\n\(host)X-Note: one\u{0}two\r\n\r\n",
      "GET /metrics HTTP/1.1\r\n\(host)Host: elsewhere.example\r\n\r\n",
      // Without a Host: this 400 libmicrohttpd 0.9.75 made itself, its head written twice.
      "GET /metrics HTTP/1.1\r\n\r\n",
    ]
    for request in requests {
      let raw = try HTTPExchange.rawAnswer(Array(request.utf8), port: port, timeout: 15)
      let answer = try HTTPExchange.parse(raw)
      #expect(answer.status == 400, "\(request.debugDescription)")
      #expect(answer.header("Connection") == "close")
    }
    // What stays served: a tab in a value, a byte past ASCII, the same request sent plainly.
    for request in [
      "GET /metrics HTTP/1.1\r\n\(host)X-Note: one\ttwo é\r\n\r\n", "GET /metrics HTTP/1.1\r\n\(host)\r\n",
    ] {
      let raw = try HTTPExchange.rawAnswer(Array(request.utf8), port: port, timeout: 15)
      #expect(try HTTPExchange.parse(raw).status == 200, "\(request.debugDescription)")
    }
  }

  @Test("--http on an address other machines reach is warned of by --check-config; loopback is not")
  func exposureWarned() throws {
    let data = try DataDirectory()
    for (address, warned) in [("0.0.0.0:9187", true), ("[::]:9187", true), ("127.0.0.1:9187", false)] {
      let check = try DaemonProcess(["--check-config", "--data", data.path, "--http", address], errorToFile: true)
      #expect(try check.waitForExit() == 0, "\(check.log)")
      #expect(check.log.contains("can be reached from other machines") == warned, "\(address): \(check.log)")
    }
  }

  @Test("--metrics, the old name of --http, is gone: on the command line or as a config key it is refused with exit 64")
  func oldNameRefused() throws {
    let data = try DataDirectory()
    let file = try ConfigFileTests.ConfigText("metrics = 127.0.0.1:0\n")
    for (extra, said) in [
      (["--metrics", "127.0.0.1:0"], "unknown option '--metrics'"), (["--config", file.path], "unknown key"),
    ] {
      let daemon = try DaemonProcess(["--port", "0", "--data", data.path] + extra, errorToFile: true)
      defer { if daemon.process.isRunning { daemon.process.terminate() } }
      #expect(try daemon.waitForExit() == 64, "\(extra): \(daemon.log)")
      #expect(daemon.log.contains(said), "\(extra): \(daemon.log)")
    }
  }

  @Test("a shop read-only after its disk filled shows read-only on the board, in a new stream and in an open one")
  func readOnlyShown() throws {
    let data = try DataDirectory().addAccount()
    // A file-size limit on the server process plays a small disk, as in DiskFullTests.
    let (daemon, port) = try data.start(
      ["--http", "127.0.0.1:0"], prefix: ["/usr/bin/prlimit", "--fsize=393216:unlimited"])
    defer { daemon.process.terminate() }
    var httpPort: UInt16?
    try waitUntil {
      httpPort = daemon.log.firstMatch(of: /board on http:\/\/127\.0\.0\.1:(\d+)\//).flatMap { UInt16($0.1) }
      return httpPort != nil
    }
    let board = try EventStreamClient(port: try #require(httpPort))
    let first = try board.next()
    #expect(first["store"] as? String == "up")
    let writer = try LineClient.greeted(port, user: "writer", role: .staff)
    let body = String(repeating: "가", count: 2000)
    var refused = false
    for index in 0..<400 where !refused {
      refused = !(try writer.request("DIARY NEW \"entry \(index)\" \"\(body)\"").isOK)
    }
    try #require(refused, "the disk never filled")
    #expect(try writer.request("INFO").rows[0]["read_only"] == "yes")
    // The open stream learns it from its next stats event; a new one from its snapshot.
    // Within ten of them (one each 2 s) at most.
    var stats = try board.next("stats")
    for _ in 0..<10 where stats["store"] as? String != "read-only" { stats = try board.next("stats") }
    #expect(stats["store"] as? String == "read-only", "\(stats.object)")
    #expect(stats["reason"] is String)
    let fresh = try EventStreamClient(port: try #require(httpPort)).next()
    #expect(fresh["store"] as? String == "read-only", "\(fresh.object)")
  }
}

import Foundation
import StockroomProtocol
import StockroomServer
import Testing

@testable import StockroomEngineHarness

#if canImport(Glibc)
  import Glibc
#endif

@Suite("Hostile clients: other protocols, resets, descriptor floods, slow and idle sockets", .timeLimit(.minutes(30)))
struct HostileClientTests {
  // MARK: Cross-protocol requests (the engine's rule: no socket needed)

  @Test(
    "another protocol's opening closes the connection with one ERR PROTOCOL line and runs nothing",
    arguments: [
      (
        "POST / HTTP/1.1\r\nHost: 127.0.0.1:7878\r\nContent-Type: text/plain\r\nContent-Length: 52\r\n\r\n"
          + "HELLO alice\nPRODUCT NEW name=planted price=1\n", "HTTP"
      ),
      ("GET /?x=1 HTTP/1.0\r\n\r\nPRODUCT NEW name=planted price=1\n", "HTTP"),
      ("Host: evil.example\r\nPRODUCT NEW name=planted price=1\n", "HTTP"),
      ("*3\r\n$7\r\nPRODUCT\r\n$3\r\nNEW\r\n$12\r\nname=planted\r\nPRODUCT NEW name=planted price=1\n", "RESP"),
      ("\u{16}\u{3}\u{1}\u{0}\u{a5}\u{1}\u{0}\u{0}\nPRODUCT NEW name=planted price=1\n", "TLS"),
    ])
  func crossProtocol(request: String, kind: String) throws {
    let server = try EngineHarness()
    let client = try server.client()
    try client.send(request)
    let lines = try client.readsToEnd()
    #expect(lines.count == 1, "\(lines)")
    #expect(lines.first?.hasPrefix("ERR PROTOCOL ") == true)
    #expect(lines.first?.contains(kind) == true)
    let other = try server.client()
    #expect(try other.request("LIST products").statusFields["total"] == "0", "nothing after it ran")
  }

  @Test("an HTTP request line later in a connection closes it too, after the replies before it")
  func crossProtocolLater() throws {
    let server = try EngineHarness()
    let client = try server.client()
    try client.send("PING first\nPOST /x HTTP/1.1\nPRODUCT NEW name=planted price=1\n")
    let lines = try client.readsToEnd()
    #expect(lines.count == 2 && lines[0] == "OK first" && lines[1].hasPrefix("ERR PROTOCOL"), "\(lines)")
    #expect(try server.client().request("LIST products").statusFields["total"] == "0")
  }

  @Test("words that only look like other protocols are ordinary requests")
  func notForeign() throws {
    let server = try EngineHarness()
    let client = try server.client()
    #expect(try client.request("PING \"GET / HTTP/1.1\"").message == "GET / HTTP/1.1")
    #expect(try client.request("*").errorCode == .unknown)
    #expect(try client.request("PING").message == "PONG")
  }

  // MARK: Rejected connections that reset

  @Test("rejected connections that reset never free a client's place")
  func rejectedResets() throws {
    let server = try TestServer { $0.maxClients = 2 }
    let first = try server.client()
    let second = try server.client()
    for _ in 0..<50 {
      let peer = try LineClient(port: server.port)
      peer.resetNow()
    }
    // Each reset is handled by the server's loop; wait until none is left lingering.
    try waitUntil { server.server.lingeringRejectionCount == 0 }
    #expect(server.server.connectedClients == 2)
    #expect(try first.request("INFO").rows[0]["clients"] == "2")
    for _ in 0..<20 {
      let late = try LineClient(port: server.port)
      #expect(try late.readReply().errorCode == .limit)
    }
    _ = second
  }

  @Test("a flood of turned-away connections that stay open each still get ERR LIMIT")
  func rejectedFlood() throws {
    let server = try TestServer { $0.maxClients = 1 }
    let only = try server.client()
    var flood: [LineClient] = []
    for _ in 0..<100 { flood.append(try LineClient(port: server.port, receiveTimeout: 10)) }
    for (index, peer) in flood.enumerated() {
      #expect(try peer.readReply().errorCode == .limit, "connection \(index) of the flood")
    }
    #expect(try only.request("PING").message == "PONG")
  }

  // MARK: Out of file descriptors

  @Test("out of file descriptors, every connection gets a line and the server does not spin")
  func outOfDescriptors() throws {
    let data = try DataDirectory()
    let (daemon, port) = try data.start(
      ["--memory", "--max-clients", "1000"], prefix: ["/usr/bin/prlimit", "--nofile=40:40"])
    defer { daemon.process.terminate() }
    #expect(daemon.logShows("the open-file limit is 40"))
    var clients: [LineClient] = []
    for _ in 0..<45 {
      let client = try LineClient(port: port, receiveTimeout: 10)
      clients.append(client)
    }
    var greeted = 0
    var refused = 0
    for client in clients {
      let reply = try client.readReply()
      if reply.isOK { greeted += 1 } else if reply.errorCode == .limit { refused += 1 }
    }
    #expect(greeted + refused == 45, "greeted \(greeted), refused \(refused)")
    #expect(greeted >= 1)
    // While out of descriptors the server may not spin on accept: turning away five more
    // connections costs it a few calls each (an accept that fails, one on the spare descriptor,
    // the line, the close, a wait), where a loop that spins makes calls for as long as they wait.
    let calls = try SystemCallCount.during(of: daemon.process.processIdentifier) {
      for index in 0..<5 {
        let late = try LineClient(port: port, receiveTimeout: 10)
        #expect(try late.readReply().errorCode == .limit, "late connection \(index)")
      }
    }
    let accepts = calls["accept4", default: 0] + calls["accept", default: 0]
    #expect(accepts >= 5 && accepts <= 60, "\(accepts) accept calls to turn away 5 connections: \(calls)")
    #expect(calls["total", default: 0] <= 600, "\(calls) while turning away 5 connections")
    // Once the crowd leaves, the server accepts again: the famine did not leave it deaf.
    for client in clients { client.closeNow() }
    clients = []
    try waitUntil {
      guard let late = try? LineClient(port: port, receiveTimeout: 2), let reply = try? late.readReply() else {
        return false
      }
      return reply.isOK
    }
    #expect(daemon.logShows("accepting connections again"))
  }

  // MARK: Slow and idle clients

  @Test("a request line dribbled a byte at a time is cut off at the line timeout")
  func slowloris() throws {
    let server = try TestServer { $0.lineTimeout = 1 }
    let client = try server.client()
    // A byte every 150 ms at the most, so the line takes over 3 s, three times the timeout,
    // however fast the machine; it stops as soon as the server has said anything.
    for byte in "PING slowly and slowly\n".utf8 {
      guard (try? client.send([byte])) != nil else { break }
      var entry = pollfd(fd: client.fd, events: Int16(POLLIN), revents: 0)
      if poll(&entry, 1, 150) > 0 { break }
    }
    let reply = try client.readsToEnd()
    #expect(reply.count == 1 && reply[0].hasPrefix("ERR TIMEOUT "), "\(reply)")
  }

  @Test("idle connections are closed with a notice, watchers are not, and their places are freed")
  func idle() throws {
    let server = try TestServer {
      $0.idleTimeout = 1
      $0.maxClients = 3
    }
    let watcher = try server.client()
    #expect(try watcher.request("WATCH").isOK)
    let idleOne = try server.client()
    let idleTwo = try server.client()
    let turnedAway = try LineClient(port: server.port)
    #expect(try turnedAway.readReply().errorCode == .limit)
    let lines = try idleOne.readsToEnd()
    #expect(lines == ["! closing reason=idle idle_seconds=1"])
    #expect(try idleTwo.readsToEnd() == ["! closing reason=idle idle_seconds=1"])
    try waitUntil { server.server.connectedClients == 1 }
    let newcomer = try server.client()
    #expect(try newcomer.request("PING").message == "PONG")
    #expect(try watcher.request("PING").message == "PONG", "a watcher waiting for events is not idle")
  }

  @Test("--timeout and --line-timeout are read from the command line")
  func options() throws {
    guard case .run(let configuration) = try ServerConfiguration.parse(["--timeout", "0", "--line-timeout", "5"]) else {
      Issue.record("not a run")
      return
    }
    #expect(configuration.idleTimeout == 0)
    #expect(configuration.lineTimeout == 5)
    guard case .run(let defaults) = try ServerConfiguration.parse([]) else {
      Issue.record("no options did not parse as a run")
      return
    }
    #expect(defaults.idleTimeout == 600 && defaults.lineTimeout == 30)
    #expect(throws: ServerConfiguration.UsageError.self) { try ServerConfiguration.parse(["--timeout", "-1"]) }
  }
}

import Foundation
import StockroomProtocol
import Testing

@testable import StockroomEngineHarness

/// Command-level rules run on the engine alone (`EngineHarness`, no socket); what needs the
/// kernel between client and server (split writes read apart, --max-clients, socket buffers, a
/// reset) runs over TCP.
@Suite("Bad input, limits and pipelining", .timeLimit(.minutes(30)))
struct RobustnessTests {
  @Test("1,000 pipelined requests in one write are answered in order")
  func pipelining() throws {
    let server = try EngineHarness(initialStock: 100_000)
    let client = try server.client()
    var batch = ""
    for index in 0..<1000 {
      batch += index.isMultiple(of: 3) ? "ORDER banana_juice\n" : "PING n\(index)\r\n"
    }
    try client.send(batch)
    var orders: [Int] = []
    for index in 0..<1000 {
      let reply = try client.readReply()
      if index.isMultiple(of: 3) {
        orders.append(try #require(Int(reply.statusFields["order"] ?? "")))
      } else {
        #expect(reply.message == "n\(index)", "reply \(index) out of order")
      }
    }
    #expect(orders == Array(1...334))
    #expect(try client.request("STOCK banana").rows[0]["stock"] == String(100_000 - 2 * 334))
  }

  @Test(
    "every bad request gets its documented code and the connection stays usable",
    arguments: [
      ("FROB", ErrorCode.unknown), ("DIARY FROB", .unknown), ("SHOW", .args), ("SHOW a b", .args),
      ("SHOW \"open", .syntax), ("SHOW \"bad \\q\"", .syntax), ("ORDER banana_juice -2", .invalid),
      ("ORDER banana_juice 1.5", .invalid), ("ORDER banana_juice 0", .invalid), ("ORDER 2", .invalid),
      ("ORDER bananna_juice", .notFound), ("ADD banana", .args), ("ADD banana x", .invalid),
      ("ADD banana 1 kiwi", .args), ("ADD banana_juice 3", .invalid), ("ADD banana 0", .invalid),
      ("LIST nothing", .notFound), ("LIST fruits page=0", .invalid), ("LIST fruits size=1000", .invalid),
      ("LIST fruits colour=red", .args), ("REGISTER \"two words\" long-enough-pw", .invalid),
      ("WATCH eiffel_tower", .invalid),
      ("ORDER banana_juice 99999999999999999999", .invalid), ("SHOW a\u{1}", .syntax),
      ("ADD banana +-3", .invalid), ("ADD 3 banana", .invalid), ("PRODUCT EDIT p1 stock=3", .args),
      ("PRODUCT NEW name=x price=1 discount=+10%", .invalid),
    ])
  func badRequests(line: String, code: ErrorCode) throws {
    let server = try EngineHarness()
    let client = try server.client(as: "tester", role: .staff)
    let reply = try client.request(line)
    #expect(reply.errorCode == code, "\(line) → \(reply.lines)")
    #expect(reply.rows.isEmpty, "a failed request leaves no data lines")
    #expect(try client.request("PING").message == "PONG")
    #expect(try client.request("STOCK banana").rows[0]["stock"] == "10", "nothing was applied")
  }

  @Test("invalid UTF-8 is refused with SYNTAX and the next line still works")
  func invalidUTF8() throws {
    let server = try EngineHarness()
    let client = try server.client()
    try client.send([UInt8]("SHOW ".utf8) + [0xC3, 0x28, 0x0A] + Array("PING\n".utf8))
    let bad = try client.readReply()
    #expect(bad.errorCode == .syntax)
    #expect(bad.message.contains("UTF-8"))
    #expect(try client.readReply().message == "PONG")
  }

  @Test("an unknown item or command suggests the closest name, the same one every time")
  func didYouMean() throws {
    let server = try EngineHarness()
    let client = try server.client()
    #expect(try client.request("SHOW banan").message.contains("did you mean 'banana'?"))
    #expect(try client.request("ORDR banana_juice").message.contains("did you mean 'ORDER'?"))
    #expect(try client.request("LIST dishe").errorCode == .notFound, "no guessing at half-words")
    #expect(try client.request("LIST dish").isOK)
    #expect(try client.request("ORDER 딸바쥬수").message.contains("did you mean '딸바쥬스'"))
    #expect(try client.request("SHOW galbijim").message.contains("did you mean"))
  }

  @Test("a line over the limit gets TOOLONG and the connection is closed, without waiting for its end")
  func lineTooLong() throws {
    let server = try EngineHarness { $0.maxLine = 1024 }
    let client = try server.client()
    try client.send("PING first\n" + String(repeating: "x", count: 4000))
    #expect(try client.readReply().message == "first")
    let lines = try client.readsToEnd()
    #expect(lines.count == 1)
    #expect(lines.first?.hasPrefix("ERR TOOLONG ") == true)
    // The server is unharmed and a line at the limit is fine.
    let other = try server.client()
    #expect(try other.request("PING " + String(repeating: "y", count: 1019)).isOK)
    #expect(try other.request("PING " + String(repeating: "y", count: 1020)).errorCode == .tooLong)
  }

  @Test("a line exactly at the limit is fine even when its CR and LF arrive apart")
  func limitWithSplitCRLF() throws {
    let server = try EngineHarness { $0.maxLine = 64 }
    let client = try server.client()
    // The engine takes the CR on its own, before the LF is written.
    try client.send("PING " + String(repeating: "c", count: 59) + "\r")
    try client.send("\n")
    #expect(try client.readReply().isOK)
  }

  @Test("a complete line over the limit in the same write as others is refused too")
  func tooLongWithLF() throws {
    let server = try EngineHarness { $0.maxLine = 100 }
    let client = try server.client()
    try client.send("PING a\n" + String(repeating: "z", count: 200) + "\nPING b\n")
    #expect(try client.readReply().message == "a")
    let rest = try client.readsToEnd()
    #expect(rest.count == 1 && rest[0].hasPrefix("ERR TOOLONG"))
  }

  @Test("clients over --max-clients get ERR LIMIT and are closed; the others carry on")
  func maxClients() throws {
    let server = try TestServer { $0.maxClients = 3 }
    let clients = try (0..<3).map { _ in try server.client() }
    let extra = try server.client(greeted: false)
    let lines = try extra.readsToEnd()
    #expect(lines.count == 1)
    #expect(lines.first?.hasPrefix("ERR LIMIT ") == true)
    for client in clients { #expect(try client.request("PING").isOK) }
    let info = try clients[0].request("INFO")
    #expect(info.rows[0]["clients"] == "3")
    #expect(info.rows[0]["connections_rejected"] == "1")
    // Once one leaves, a newcomer is let in.
    try clients[2].send("QUIT\n")
    _ = try clients[2].readsToEnd()
    try waitUntil { server.server.connectedClients == 2 }
    let newcomer = try server.client(greeted: false)
    #expect(try newcomer.readLine()?.hasPrefix("OK stockroomd") == true)
  }

  @Test("a client that pipelines far more than it reads is not dropped and loses no reply")
  func backpressure() throws {
    let server = try TestServer { $0.outputHighWater = 16 * 1024 }
    let client = try server.client()
    let count = 3000
    // About 4 KB of reply per request: far more than the high-water mark and socket buffers.
    let writer = Thread {
      try? client.send(String(repeating: "LIST dishes\n", count: count) + "PING done\n")
    }
    writer.start()
    var replies = 0
    while replies < count {
      let reply = try client.readReply()
      #expect(reply.rows.count == 18)
      replies += 1
    }
    #expect(try client.readReply().message == "done")
  }

  @Test("a client that resets while its replies are backed up is let go, and the server serves on")
  func resetWhileBackedUp() throws {
    let server = try TestServer { $0.outputHighWater = 16 * 1024 }
    let client = try LineClient(port: server.port, receiveBuffer: 4096)
    _ = try client.readReply()
    // About 12 MB of replies asked for and none read: the server stops reading from this client.
    try client.send(String(repeating: "LIST dishes\n", count: 3000))
    try waitUntil {
      var available: Int32 = 0
      return ioctl(client.fd, UInt(FIONREAD), &available) == 0 && available >= 1024
    }
    #expect(server.server.connectedClients == 1)
    // A reset, not a FIN: the server hears of it as a hang-up on a socket it is not reading.
    client.resetNow()
    try waitUntil { server.server.connectedClients == 0 }
    #expect(try server.client().request("PING still").message == "still")
  }

  @Test("a watcher that never reads is disconnected once its unsent output passes the hard limit")
  func silentWatcherIsDropped() throws {
    let server = try TestServer(initialStock: 1_000_000) {
      $0.outputHardLimit = 64 * 1024
    }
    let watcher = try LineClient(port: server.port, receiveBuffer: 4096)
    _ = try watcher.readReply()
    #expect(try watcher.request("WATCH").isOK)
    let worker = try server.client(as: "worker", role: .staff)
    // Each restock is one ~70-byte event for the watcher, which reads none of them: 7 MB in all,
    // more than the kernel's socket buffers and the 64 KB limit together.
    for _ in 0..<200 {
      try worker.send(String(repeating: "ADD banana 1\n", count: 500))
      for _ in 0..<500 { _ = try worker.readReply() }
    }
    try waitUntil { (try? worker.request("INFO").rows[0]["watchers"]) == "0" }
    #expect(try worker.request("INFO").rows[0]["clients"] == "1")
    try waitUntil { (try? worker.request("INFO stats").rows[0]["slow_consumer_disconnects"]) == "1" }
  }
}

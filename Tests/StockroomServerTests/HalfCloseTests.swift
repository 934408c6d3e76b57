import Foundation
import StockroomProtocol
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A script that sends its requests and then shuts its sending side (`nc -N`, `nc -q1`, any
/// client that calls shutdown(SHUT_WR) and reads) gets every reply, after its commit.
@Suite("Half-closing clients on the durable store", .timeLimit(.minutes(30)))
struct HalfCloseTests {
  enum Mode: String, CaseIterable, CustomStringConvertible {
    case netcatQuit = "nc -q1"
    case netcatShutdown = "nc -N"
    case socketShutdown = "shutdown(SHUT_WR)"

    var description: String { rawValue }

    /// Sends `script` on a new connection, ends the input, and returns every line received.
    func send(_ script: String, port: UInt16) throws -> [String] {
      switch self {
      case .netcatQuit, .netcatShutdown:
        let flag = self == .netcatQuit ? "-q1" : "-N"
        return try Netcat.run([flag], port: port, input: script).split(separator: "\n").map(String.init)
      case .socketShutdown:
        let client = try LineClient(port: UInt16(port))
        try client.send(script)
        shutdown(client.fd, Int32(SHUT_WR))
        return try client.readsToEnd()
      }
    }
  }

  /// Every kind of write, one request per connection: the reply is the last line received.
  @Test("every kind of write is answered before the connection closes", arguments: Mode.allCases)
  func everyWrite(mode: Mode) throws {
    let data = try DataDirectory().addAccount().addAccount("alice", role: .staff)
    let (daemon, port) = try data.start()
    defer { daemon.process.terminate() }
    // The request after LOGIN waits for the password check and runs as alice.
    let login = "LOGIN alice \(Quoting.quote(LineClient.password(for: "alice")))\n"
    func reply(_ request: String) throws -> String {
      let lines = try mode.send(login + "\(request)\n", port: port)
      #expect(lines.first?.hasPrefix("OK stockroomd") == true, "\(mode): no greeting for \(request)")
      let last = try #require(lines.last, "\(mode): nothing for \(request)")
      #expect(last.hasPrefix("OK "), "\(mode): \(request) got \(lines)")
      return last
    }
    _ = try reply("ORDER kiwi")
    let keyed = try reply("ORDER kiwi 2 key=half-close-1")
    #expect(try reply("ORDER kiwi 2 key=half-close-1") == keyed, "the retry answers the first reply")
    _ = try reply("ADD kiwi 5")
    _ = try reply("ADD kiwi -1")
    let product = try #require(try reply("PRODUCT NEW name=Pear price=1200 stock=3").firstMatch(of: /product=(p\d+)/))
    _ = try reply("PRODUCT EDIT \(product.1) price=1500")
    _ = try reply("ORDER \(product.1)")
    _ = try reply("PRODUCT DELETE \(product.1)")
    let entry = try #require(try reply("DIARY NEW \"half\" \"closed\"").firstMatch(of: /diary=(\d+)/))
    _ = try reply("DIARY EDIT \(entry.1) title=edited")
    _ = try reply("DIARY DELETE \(entry.1)")

    // Each of them happened exactly once.
    let client = try LineClient.greeted(port, user: "alice")
    #expect(try client.request("STOCK kiwi").rows[0]["stock"] == String(10 - 1 - 2 + 5 - 1))
    #expect(try client.request("INFO").rows[0]["orders"] == "3")
  }

  @Test("many pipelined writes, then end of input: every one is answered, in order", arguments: Mode.allCases)
  func pipelinedWrites(mode: Mode) throws {
    let data = try DataDirectory().addAccount().addAccount("alice", role: .staff)
    let (daemon, port) = try data.start()
    defer { daemon.process.terminate() }
    let login = "LOGIN alice \(Quoting.quote(LineClient.password(for: "alice")))\n"
    let script = login + (1...200).map { "ADD kiwi \($0)\nPING \($0)\n" }.joined()
    let lines = try mode.send(script, port: port)
    let statuses = lines.filter { $0.hasPrefix("OK") || $0.hasPrefix("ERR") }
    #expect(statuses.count == 402, "greeting, login and 400 replies; got \(statuses.count)")
    #expect(statuses.last == "OK 200")
    let client = try LineClient.greeted(port)
    #expect(try client.request("STOCK kiwi").rows[0]["stock"] == String(10 + 200 * 201 / 2))
  }

  @Test("a last line without LF is a request too when the input ends")
  func lastLineWithoutNewline() throws {
    let data = try DataDirectory()
    let (daemon, port) = try data.start()
    defer { daemon.process.terminate() }
    let lines = try Mode.netcatShutdown.send("PING one\nORDER kiwi", port: port)
    #expect(lines.count == 5, "\(lines)")
    #expect(lines.last == "OK order=1")
  }
}

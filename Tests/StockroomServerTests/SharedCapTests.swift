import Foundation
import Testing

@testable import StockroomEngineHarness

/// The market and the diaries cannot be filled by a few accounts against everyone else
/// (issue 41, finding 8): each account holds at most its share (`ShareCap.perOwner`), and the
/// last places are kept for accounts holding few.
@Suite("Shared caps keep a place for a newcomer", .timeLimit(.minutes(30)))
struct SharedCapTests {
  /// A connection logged in as each of `count` new accounts named `prefix0`, `prefix1`, ...
  private func accounts(_ server: TestServer, _ prefix: String, count: Int) throws -> [LineClient] {
    let hash = try TestAccounts.hash(for: "capfiller")
    let password = LineClient.password(for: "capfiller")
    return try (0..<count).map { index in
      try server.server.addAccount(name: "\(prefix)\(index)", passwordHash: hash, role: .customer)
      let client = try LineClient(port: server.port, receiveTimeout: 120, from: "127.0.0.2")
      _ = try client.readReply()
      #expect(try client.request("LOGIN \(prefix)\(index) \(password)").isOK)
      return client
    }
  }

  /// Sends `line` `count` times on `client`, pipelined, and counts the OKs.
  private func repeated(_ line: String, _ count: Int, on client: LineClient) throws -> Int {
    try client.send(String(repeating: line + "\n", count: count))
    return try (0..<count).count { _ in try client.readReply().isOK }
  }

  @Test("one account listing as many products as it can, then 100 accounts: another seller still lists one")
  func marketKeepsAPlace() throws {
    let server = try TestServer()
    let first = try accounts(server, "stall", count: 1)[0]
    let listed = try repeated("PRODUCT NEW name=Filler price=100", 10_000, on: first)
    #expect(listed == 100, "one account listed \(listed)")
    for filler in try accounts(server, "stalls", count: 100) {
      _ = try repeated("PRODUCT NEW name=Filler price=100", 100, on: filler)
    }
    try server.account("victim", role: .customer)
    let victim = try LineClient.greeted(server.port, user: "victim")
    let reply = try victim.request("PRODUCT NEW name=\"Red apple\" price=1200 stock=5")
    #expect(reply.isOK, "\(reply.lines)")
  }

  @Test("100 fresh accounts filling the diaries: a new user still writes an entry")
  func diaryKeepsAPlace() throws {
    let server = try TestServer()
    for filler in try accounts(server, "diarist", count: 100) {
      _ = try repeated("DIARY NEW \"filler\" \"filling the diaries\"", 1_000, on: filler)
    }
    try server.account("victim", role: .customer)
    let victim = try LineClient.greeted(server.port, user: "victim")
    let reply = try victim.request("DIARY NEW \"첫 일기\" \"오늘은 딸기를 샀다\"")
    #expect(reply.isOK, "\(reply.lines)")
  }
}

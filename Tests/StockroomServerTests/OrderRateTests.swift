import Foundation
import StockroomTestSupport
import Testing

@testable import StockroomServer

/// By default (`--order-rate 1000`), one host ordering as fast as it can grows the database by a bounded
/// amount (issue 41, finding 3): order lines are taken from a bucket per address, and another
/// host's orders are served meanwhile.
@Suite("Orders rate-limited per address", .timeLimit(.minutes(30)))
struct OrderRateTests {
  /// Bytes of every file in `directory`.
  private func size(of directory: String) throws -> Int {
    try FileManager.default.contentsOfDirectory(atPath: directory).reduce(0) { total, name in
      let attributes = try FileManager.default.attributesOfItem(atPath: "\(directory)/\(name)")
      return total + ((attributes[.size] as? NSNumber)?.intValue ?? 0)
    }
  }

  @Test(
    "by default: 5,000 guest orders of 100 lines from one host grow the shop by a bounded amount, another host orders"
  )
  func floodIsBounded() throws {
    let data = try DataDirectory()
    let server = try data.openServer(initialStock: 1_000_000)
    #expect(ServerConfiguration().orderRate == 1_000, "the bound below is the default's")
    let port = try server.start()
    defer { server.stop() }
    let before = try size(of: data.path)
    let started = Date()
    let flooder = try LineClient(port: port, receiveTimeout: 120, from: "127.0.0.2")
    _ = try flooder.readReply()
    let order = "ORDER " + Array(repeating: "kiwi 1", count: 100).joined(separator: " ")
    var accepted = 0
    var limited = 0
    for _ in 0..<50 {
      try flooder.send(String(repeating: order + "\n", count: 100))
      for _ in 0..<100 {
        let reply = try flooder.readReply()
        if reply.isOK { accepted += 1 } else if reply.errorCode == .limit { limited += 1 }
      }
    }
    let elapsed = Date().timeIntervalSince(started)
    let user = try LineClient(port: port, receiveTimeout: 60, from: "127.0.0.1")
    _ = try user.readReply()
    #expect(try user.request("ORDER kiwi").isOK, "another host's order was refused")
    // Ten seconds' worth at once, then 1,000 lines a second: a bound on the lines written.
    let allowed = (10_000 + Int(elapsed.rounded(.up)) * 1_000) / 100 + 1
    #expect(accepted <= allowed, "\(accepted) orders of 100 lines taken in \(elapsed) s")
    #expect(limited > 0 && accepted + limited == 5_000)
    let grown = try size(of: data.path) - before
    #expect(grown <= 50 * 1024 * 1024, "the shop grew \(grown / 1024 / 1024) MB")
  }
}

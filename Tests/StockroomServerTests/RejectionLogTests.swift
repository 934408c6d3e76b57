import Foundation
import StockroomTransport
import Testing

@testable import StockroomServer

/// A flood of connections past `--max-clients` is said in the log as a count, not a line each.
@Suite("Turned-away connections are summarised in the log", .timeLimit(.minutes(30)))
struct RejectionLogTests {
  @Test("the interval's first rejection is logged in full; the rest as one count when it ends")
  func intervalValue() {
    var log = RejectionLog(interval: .seconds(10))
    let first = log.rejected()
    #expect(first)
    var logged = 0
    for _ in 0..<41 where log.rejected() { logged += 1 }
    #expect(logged == 0)
    let unsaid = log.intervalEnded()
    #expect(unsaid == 41)
    let next = log.rejected()
    #expect(next)
    let none = log.intervalEnded()
    #expect(none == 0)
  }

  @Test("40 connections turned away write a handful of lines that count all 40")
  func floodSummarised() throws {
    let log = try LogCapture()
    let server = try TestServer(logger: log.logger) {
      $0.maxClients = 1
      $0.rejectionLogInterval = .seconds(2)
    }
    let holder = try server.client()
    for _ in 0..<40 {
      let turnedAway = try LineClient(port: server.port, receiveTimeout: 10)
      #expect(try turnedAway.readLine()?.hasPrefix("ERR LIMIT ") == true)
    }
    #expect(try holder.request("INFO stats").rows.first?["connections_rejected"] == "40")
    // Every interval ends with its count; waiting for the counts to add up to 40 is the
    // condition, the intervals only its pace.
    var full = 0
    var counted = 0
    let deadline = Date().addingTimeInterval(60)
    repeat {
      let lines = log.text.split(separator: "\n").filter { $0.contains(" WARN reject ") }
      full = lines.filter { $0.contains(" reject id=") }.count
      counted = lines.compactMap { line in
        line.firstMatch(of: #/reject count=(\d+):/#).flatMap { Int($0.1) }
      }.reduce(0, +)
      if full + counted == 40 { break }
      usleep(50_000)
    } while Date() < deadline
    #expect(full + counted == 40, "\(log.text)")
    // One full line per interval: the 40 fit in very few intervals however loaded the machine.
    #expect(full >= 1 && full <= 8, "\(full) rejections logged one by one:\n\(log.text)")
  }
}

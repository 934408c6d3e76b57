import Foundation
import StockroomTransport
import Testing

@testable import StockroomServer

/// A loop that connects and closes cannot fill the log (issue 41, finding 11: 260,437 lines,
/// 28.6 MB, in 30 s): past the first connects of an address in an interval, its connects and
/// their disconnects are counted and said as one line per address, while other hosts' connects
/// are logged in full.
@Suite("Connects are summarised per address past a rate", .timeLimit(.minutes(30)))
struct ConnectLogTests {
  @Test("per source, the first of an interval in full, the rest counted; sources past the table's size together")
  func rateValue() {
    var rate = SourceLogRate<String>(interval: .seconds(10), inFull: 3, capacity: 2)
    let first = (0..<10).map { _ in rate.note("a", label: "a") }
    #expect(first.map(\.inFull) == [true, true, true] + Array(repeating: false, count: 7))
    #expect(first.map(\.beganInterval) == [true] + Array(repeating: false, count: 9))
    #expect(rate.note("b", label: "b").inFull)
    #expect(!rate.note("c", label: "c").inFull, "past the table's size")
    let unsaid = rate.intervalEnded()
    #expect(unsaid == [.init(label: "a", count: 7), .init(label: nil, count: 1)])
    #expect(rate.note("a", label: "a") == .init(inFull: true, beganInterval: true))
  }

  @Test(
    "2,000 connect-and-close from one host write a bounded number of lines that count every one served; another host's connect is logged in full"
  )
  func connectLoopSummarised() throws {
    let log = try LogCapture()
    let server = try TestServer(logger: log.logger) { $0.connectLogInterval = .seconds(2) }
    let stats = server.server.stats
    let before = stats.totalConnections.load(ordering: .relaxed)
    let rejectedBefore = stats.rejectedConnections.load(ordering: .relaxed)
    let loops = 2_000
    for _ in 0..<loops {
      let client = try LineClient(port: server.port, from: "127.0.0.2")
      client.closeNow()
    }
    // Some may find the address's 256 places still held by closing ones, and be turned away
    // (their log lines are summarised already).
    let accepted = { stats.totalConnections.load(ordering: .relaxed) - before }
    try waitUntil(timeout: 60) {
      accepted() + stats.rejectedConnections.load(ordering: .relaxed) - rejectedBefore == loops
        && stats.connectedClients.load(ordering: .relaxed) == 0
    }
    let served = accepted()
    // Another host, after the flood: its connect is in the log line by line.
    let other = try LineClient(port: server.port, from: "127.0.0.3")
    _ = try other.readReply()
    #expect(log.waitFor("peer=127.0.0.3:"), "\(log.text.suffix(2_000))")
    // Every interval ends with its count; the counts adding up to 2,000 is the condition.
    var lines: [Substring] = []
    var full = 0
    var counted = 0
    let deadline = Date().addingTimeInterval(60)
    repeat {
      lines = log.text.split(separator: "\n").filter { $0.contains("127.0.0.2") }
      full = lines.filter { $0.contains(" connect id=") }.count
      counted = lines.compactMap { $0.firstMatch(of: #/connect count=(\d+) /#).flatMap { Int($0.1) } }.reduce(0, +)
      if full + counted == served { break }
      usleep(50_000)
    } while Date() < deadline
    #expect(full + counted == served, "\(full) in full, \(counted) counted of \(served)")
    #expect(served >= 100, "the loop was served, not only turned away: \(served)")
    let summaries = lines.filter { $0.contains("connect count=") }.count
    let disconnects = lines.filter { $0.contains(" disconnect id=") }.count
    #expect(full <= 10 * (summaries + 1), "at most 10 in full per interval: \(full) in \(summaries + 1)")
    #expect(disconnects <= full, "a counted connect's disconnect is not logged either")
    #expect(lines.count <= 300, "\(lines.count) lines for 2,000 connections")
    other.closeNow()
  }
}

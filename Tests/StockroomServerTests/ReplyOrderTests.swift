import Foundation
import Testing

@testable import StockroomEngineHarness

/// Found by the protocol fuzzer (seed 0x248fe70671ce26c3, w21c63): on the on-disk store a line
/// over the limit was answered `ERR TOOLONG` ahead of the replies to the requests before it that
/// were still waiting for their commit.
@Suite("Reply order with changes waiting for their commit", .timeLimit(.minutes(30)))
struct ReplyOrderTests {
  /// Through the engine alone, the race the fuzzer found over a socket is decided: the whole
  /// input is read before the test's thread runs the commit's completion, so the order is
  /// certainly still waiting for its commit when the long line is refused.
  @Test("ERR TOOLONG comes after the replies to earlier pipelined changes still waiting for their commit")
  func tooLongAfterPendingCommits() throws {
    let data = try DataDirectory()
    let engine = try EngineHarness(data: data, initialStock: 1000)
    let long = "PING " + String(repeating: "x", count: 70_000)
    let client = try engine.client()
    try client.send("ORDER banana\n\r\n" + long + "\n")
    let lines = try client.readsToEnd()
    let kinds = lines.map { String($0.prefix(while: { $0 != " " })) }
    #expect(kinds == ["*", "*", "OK", "ERR", "ERR"], "\(lines.map { $0.prefix(50) })")
    #expect(lines.last?.hasPrefix("ERR TOOLONG ") == true)
  }
}

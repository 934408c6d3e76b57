import Foundation
import Testing

/// Found by the protocol fuzzer (seed 0x248fe70671ce26c3, w21c63): on the on-disk store a line
/// over the limit was answered `ERR TOOLONG` ahead of the replies to the requests before it that
/// were still waiting for their commit.
@Suite("Reply order with changes waiting for their commit")
struct ReplyOrderTests {
  @Test("ERR TOOLONG comes after the replies to earlier pipelined changes, however long their commit takes")
  func tooLongAfterPendingCommits() throws {
    let data = try DataDirectory()
    // Enough bananas for every try; an order waits for its commit as a restock does.
    let (daemon, port) = try data.start(["--initial-stock", "1000"])
    defer {
      daemon.process.terminate()
      _ = try? daemon.waitForExit()
    }
    let long = "PING " + String(repeating: "x", count: 70_000)
    // The race is between a commit and reading the rest of the long line; 500 tries
    // lose it nearly every time when the order is not enforced.
    for trial in 1...500 {
      let client = try LineClient.greeted(port)
      try client.send("ORDER banana\n\r\n" + long + "\n")
      let lines = try client.readsToEnd()
      let kinds = lines.map { String($0.prefix(while: { $0 != " " })) }
      #expect(
        kinds == ["*", "*", "OK", "ERR", "ERR"] && lines.last?.hasPrefix("ERR TOOLONG ") == true,
        "try \(trial): \(lines.map { $0.prefix(50) })")
      if lines.last?.hasPrefix("ERR TOOLONG ") != true { break }
    }
  }
}

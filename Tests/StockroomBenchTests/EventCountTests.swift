import Testing

@testable import stockroom_bench

@Suite("counting a watcher's events", .timeLimit(.minutes(30)))
struct EventCountTests {
  private func count(_ dialect: some Dialect, _ text: String) -> (count: Int, length: Int) {
    Array(text.utf8).withUnsafeBytes { dialect.events(in: $0) }
  }

  @Test("Stockroom: every whole line is an event; a partial line waits")
  func stockroom() {
    let text = "! stock item=banana level=9 change=-1\n! stock item=banana level=8 change=-1\n! sto"
    let found = count(StockroomDialect(), text)
    #expect(found.count == 2)
    #expect(found.length == text.utf8.count - 5)
  }

  @Test("Redis: every whole RESP message is an event; a partial one waits")
  func redis() {
    let message = "*3\r\n$7\r\nmessage\r\n$6\r\nbanana\r\n$5\r\nlevel\r\n"
    let found = count(RedisDialect(), message + message + "*3\r\n$7\r\nmess")
    #expect(found.count == 2)
    #expect(found.length == 2 * message.utf8.count)
  }
}

import Foundation
import StockroomDomain
import Testing

@testable import StockroomStorage

/// The change log's text forms from before schema 6 (`CompactMutations`' `~1` for orders and
/// restocks, JSON for the rest): a node no longer writes them, but still reads the changes
/// logged in them, and refuses a damaged one without its text.
@Suite("The change log's forms from before schema 6", .timeLimit(.minutes(30)))
struct CompactMutationsTests {
  private static let at = Date(timeIntervalSinceReferenceDate: 786_543_210.123_456_7)

  private func legacy(_ text: String, sequence: Int = 1) throws -> [Mutation] {
    try ChangeRecord.decode(record: nil, legacy: text, sequence: sequence)
  }

  @Test("orders and restocks in the compact form, as a node of schema 4 or 5 wrote them, read exactly")
  func compactForm() throws {
    // Written by hand in the form `CompactMutations.encode` wrote (times are the bits of
    // `timeIntervalSinceReferenceDate` in hex).
    let text =
      "~1;o 5:alice 1 12:banana_juice 1 41c770d9350fcd6e -"
      + ";o 10:김 민수 2 6:kimchi 2 6:p:1 ;x 3 c1cd27e440000000 15:retry 7;o 5:bob"
      + ";o 0: 0 bff8000000000000 0:;r 5:staff 2 6:banana 40 5:mango -3"
    let expected: [Mutation] = [
      .order(user: "alice", lines: [ItemCount("banana_juice", 1)], at: Self.at),
      .order(
        user: "김 민수", lines: [ItemCount("kimchi", 2), ItemCount("p:1 ;x", 3)], at: Date(timeIntervalSince1970: 0),
        key: "retry 7;o 5:bob"),
      .order(user: "", lines: [], at: Date(timeIntervalSinceReferenceDate: -1.5), key: ""),
      .restock(user: "staff", changes: [ItemCount("banana", 40), ItemCount("mango", -3)]),
    ]
    #expect(try legacy(text) == expected)
  }

  @Test("a change logged as JSON still reads")
  func jsonForm() throws {
    let mixed: [Mutation] = [
      .order(user: "alice", lines: [ItemCount("banana", 1)], at: Self.at),
      .deleteDiary(id: 3, owner: "alice"),
    ]
    // What `ChangeRecord.encode` wrote for a change that was not all orders and restocks.
    let text = String(decoding: try JSONEncoder().encode(mixed), as: UTF8.self)
    #expect(try legacy(text) == mixed)
    #expect(try legacy("[]") == [])
  }

  @Test(
    "a damaged entry is refused, saying which change and not what it held",
    arguments: [
      "~1;o 5:alice", "~1;o 5:alice 1 6:banana 1 zz -", "~1;q 5:alice 0", "~1;o 99:alice 0 0 -",
      "~1;r 5:alice 2 6:banana 1", "~1;o 5:alice 1 6:banana 1 0 -trailing", "~1 ;r 5:alice 0",
      "~1;r 5:alice 99999999999999999999999", "[{\"deleteAccount\":{\"name\":\"alice\"}",
    ])
  func damaged(text: String) {
    do {
      _ = try legacy(text, sequence: 42)
      Issue.record("'\(text)' was read")
    } catch {
      #expect("\(error)".contains("change 42"))
      #expect(!"\(error)".contains("alice"))
    }
  }
}

import Foundation
import StockroomDomain
import Testing

@testable import StockroomStorage

/// The change log's compact form: what goes in comes out exactly, anything else stays JSON, and a
/// damaged entry is refused without its text.
@Suite("The change log's compact form for orders and restocks", .timeLimit(.minutes(30)))
struct CompactMutationsTests {
  private static let at = Date(timeIntervalSinceReferenceDate: 786_543_210.123_456_7)

  @Test("orders and restocks come back exactly, whatever bytes their strings hold")
  func roundTrip() throws {
    let mutations: [Mutation] = [
      .order(user: "alice", lines: [ItemCount("banana_juice", 1)], at: Self.at),
      .order(
        user: "김 민수", lines: [ItemCount("kimchi", 2), ItemCount("p:1 ;x", 3)], at: Date(timeIntervalSince1970: 0),
        key: "retry 7;o 5:bob"),
      .order(user: "", lines: [], at: Date(timeIntervalSinceReferenceDate: -1.5), key: ""),
      .restock(user: "staff", changes: [ItemCount("banana", 40), ItemCount("mango", -3)]),
      .order(user: "x", lines: [ItemCount("🍌", Int.max)], at: .distantFuture, key: "-"),
    ]
    let text = try ChangeRecord.encode(mutations)
    #expect(text.hasPrefix("~1;o 5:alice 1 12:banana_juice 1 "))
    #expect(try ChangeRecord.decode(text, sequence: 1) == mutations)
  }

  @Test("a change with anything but orders and restocks is JSON, and JSON written before still reads")
  func jsonForTheRest() throws {
    let mixed: [Mutation] = [
      .order(user: "alice", lines: [ItemCount("banana", 1)], at: Self.at),
      .deleteDiary(id: 3, owner: "alice"),
    ]
    let text = try ChangeRecord.encode(mixed)
    #expect(text.hasPrefix("["))
    #expect(try ChangeRecord.decode(text, sequence: 1) == mixed)
    let olderOrder = String(decoding: try JSONEncoder().encode([mixed[0]]), as: UTF8.self)
    #expect(try ChangeRecord.decode(olderOrder, sequence: 2) == [mixed[0]])
  }

  @Test(
    "a damaged entry is refused, saying which change and not what it held",
    arguments: [
      "~1;o 5:alice", "~1;o 5:alice 1 6:banana 1 zz -", "~1;q 5:alice 0", "~1;o 99:alice 0 0 -",
      "~1;r 5:alice 2 6:banana 1", "~1;o 5:alice 1 6:banana 1 0 -trailing", "~1 ;r 5:alice 0",
      "~1;r 5:alice 99999999999999999999999",
    ])
  func damaged(text: String) {
    do {
      _ = try ChangeRecord.decode(text, sequence: 42)
      Issue.record("'\(text)' was read")
    } catch {
      #expect("\(error)".contains("change 42"))
      #expect(!"\(error)".contains("alice"))
    }
  }
}

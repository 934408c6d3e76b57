import Foundation
import StockroomProtocol
import Testing

/// Every `kind=` the server writes is one `RowKind`, and Protocol.md's table of row kinds lists
/// each: a new kind cannot reach the wire undocumented.
@Suite(.timeLimit(.minutes(30))) struct RowKindTests {
  static let protocolDocument = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Protocol.md")

  @Test func everyKindIsInProtocolTable() throws {
    let text = try String(contentsOf: Self.protocolDocument, encoding: .utf8)
    let table = text.split(separator: "\n").filter { $0.hasPrefix("| `") }.map { line in
      line.dropFirst(3).prefix { $0 != "`" }
    }
    for kind in RowKind.allCases {
      #expect(table.contains(Substring(kind.rawValue)), "Protocol.md's row kinds have no row for \(kind.rawValue)")
    }
  }

  @Test func encoderWritesTheKindField() {
    var out = ReplyEncoder(capacity: 64)
    out.beginRow("kiwi")
    out.kind(.fruit)
    out.endLine()
    #expect(String(decoding: out.bytes, as: UTF8.self) == "* kiwi kind=fruit\n")
  }

  @Test func everyKindFieldSpellsItsRawValue() {
    for kind in RowKind.allCases {
      var out = ReplyEncoder(capacity: 64)
      out.kind(kind)
      #expect(String(decoding: out.bytes, as: UTF8.self) == " kind=\(kind.rawValue)")
    }
  }
}

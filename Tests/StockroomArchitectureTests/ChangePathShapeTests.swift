import Foundation
import Testing

/// One change path, one way round: the paths a change takes (memory, the SQLite committer, the
/// PostgreSQL writer) are given the shop when they are made and call into it; nothing in
/// `Changes`, nor in the persistence target that holds the paths with a disk, is wired up after
/// construction, and none of it knows how a reply is written.
@Suite(.timeLimit(.minutes(30))) struct ChangePathShapeTests {
  static let changes = ImportRuleTests.sources.appendingPathComponent("StockroomEngine/Changes")
  static let persistence = ImportRuleTests.sources.appendingPathComponent("StockroomPersistence")

  /// The code of each file in `Changes` and the persistence target, comments left out.
  static func code() throws -> [(file: String, lines: [Substring])] {
    try (ImportRuleTests.swiftFiles(in: changes) + ImportRuleTests.swiftFiles(in: persistence)).map { file in
      let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").filter {
        !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//")
      }
      return (file.lastPathComponent, lines)
    }
  }

  /// A callback held in a `var` is one assigned after construction: the committer had four.
  @Test func nothingIsWiredAfterConstruction() throws {
    // `var name: ((…) -> …)?`: a function type, and no `{` of a computed property before it.
    let callback = try Regex(#"\bvar\s+\w+\s*:[^{=]*->"#)
    let files = try Self.code()
    #expect(files.count >= 10, "the change path's files are not where this test looks")
    for (file, lines) in files {
      for line in lines where line.contains(callback) {
        Issue.record("Changes/\(file) holds a callback in a var: \(line.trimmingCharacters(in: .whitespaces))")
      }
    }
  }

  /// The request layer's types stay above the change path: it is handed a `Mutation` and hands
  /// back what happened, and the handler writes the reply.
  @Test func changesNameNoRequestLayerType() throws {
    let names = try ["Session", "ReplyEncoder", "ChangeRequest", "Connection"].map { name in
      (name, try Regex("(^|[^A-Za-z0-9_])\(name)([^A-Za-z0-9_]|$)"))
    }
    for (file, lines) in try Self.code() {
      for line in lines {
        for (name, pattern) in names where line.contains(pattern) {
          Issue.record("Changes/\(file) names \(name): \(line.trimmingCharacters(in: .whitespaces))")
        }
      }
    }
  }

  /// The `Shop` owns the locked shop and the path; the path holds the `LockedShop`, never the
  /// `Shop`.
  @Test func pathsHoldTheLockedShopNotTheShop() throws {
    let shop = try Regex(#"\b(let|var)\s+\w+\s*:\s*Shop\??\b"#)
    for (file, lines) in try Self.code() where file != "Shop.swift" {
      for line in lines where line.contains(shop) {
        Issue.record("Changes/\(file) holds the Shop: \(line.trimmingCharacters(in: .whitespaces))")
      }
    }
  }
}

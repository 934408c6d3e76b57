import Foundation
import StockroomProtocol
import StockroomServer
import Testing

@Suite("Protocol.md and the command table agree", .timeLimit(.minutes(30)))
struct ContractTests {
  static let protocolText: String = {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Protocol.md")
    return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
  }()

  private var headings: Set<String> {
    Set(
      Self.protocolText.split(separator: "\n").compactMap { line in
        line.hasPrefix("### ") ? line.dropFirst(4).trimmingCharacters(in: .whitespaces) : nil
      })
  }

  @Test("every command and subcommand in the table has its own section in Protocol.md")
  func everyCommandDocumented() {
    #expect(!Self.protocolText.isEmpty, "Protocol.md is missing")
    for (path, _) in CommandTable.allWithPaths {
      #expect(headings.contains(path), "Protocol.md has no '### \(path)' section")
    }
  }

  @Test("every command section in Protocol.md is a command the server knows")
  func noStaleCommands() {
    let known = Set(CommandTable.allWithPaths.map(\.path))
    for heading in headings where heading.uppercased() == heading && heading.first?.isLetter == true {
      #expect(known.contains(heading), "Protocol.md documents '\(heading)', which the table does not have")
    }
  }

  @Test("every error code is in Protocol.md's table")
  func everyErrorCodeDocumented() {
    for code in ErrorCode.allCases {
      #expect(Self.protocolText.contains("| \(code.rawValue) |"), "Protocol.md does not document \(code.rawValue)")
    }
  }

  @Test("every option of stockroomd --help is in Protocol.md's options table and docs/operating.md's synopsis")
  func everyServerOptionDocumented() throws {
    let serverPart = try #require(ServerConfiguration.usage.components(separatedBy: "stockroomd backup").first)
    let options = serverPart.split(separator: "\n").compactMap { line in
      line.firstMatch(of: /^\s+(?:-\w, )?(--[a-z-]+)/).map { String($0.1) }
    }
    #expect(options.count >= 18, "options read from the usage: \(options)")
    let section = try #require(Self.protocolText.components(separatedBy: "## 2. Framing").first)
    let table = section.split(separator: "\n").filter { $0.hasPrefix("| `") }.joined(separator: "\n")
    let manual = DocSessionTests.document("docs/operating.md")
    let synopsis =
      try #require(manual.components(separatedBy: "```\nstockroomd [").dropFirst().first)
      .components(separatedBy: "```").first ?? ""
    for option in options {
      // Not followed by more of a name: --fsync is not --fsync-interval.
      let word = try Regex(option + "(?![a-z-])")
      let row = try Regex("`" + option + "(?![a-z-])")
      #expect(table.contains(row), "Protocol.md section 1's table lacks \(option)")
      #expect(synopsis.contains(word), "docs/operating.md's stockroomd synopsis lacks \(option)")
    }
  }
}

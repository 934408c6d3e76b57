import Foundation
import Testing

/// A file a reader can take in: none in Sources is over 450 lines (issue 42). A file that grows
/// past it has more than one job; split it by job, as `Connection+Watching` is split from
/// `Connection`.
@Suite(.timeLimit(.minutes(30))) struct FileLengthTests {
  static let limit = 450

  @Test func noFileIsOverFourHundredFiftyLines() throws {
    let files = try ImportRuleTests.swiftFiles(in: ImportRuleTests.sources)
    #expect(files.count > 300, "the rule reads the real tree")
    for file in files {
      let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
      // The last line ends with LF, which leaves one empty piece after it.
      let count = lines.last?.isEmpty == true ? lines.count - 1 : lines.count
      if count > Self.limit {
        Issue.record(
          "\(file.deletingLastPathComponent().lastPathComponent)/\(file.lastPathComponent) is \(count) lines")
      }
    }
  }
}

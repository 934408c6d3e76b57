import Foundation
import Testing

/// No dead link in the documents: every relative link in README.md, Protocol.md and the manual
/// (docs/, its generated references included) names a file or folder of the repository, and
/// every `#anchor` one of the target's headings as GitHub numbers them. Links to other sites are
/// not followed: a test must not depend on the network.
@Suite(.timeLimit(.minutes(30))) struct DocLinkTests {
  static let root = ImportRuleTests.sources.deletingLastPathComponent()

  /// The documents, by path from the repository's root.
  static func documents() throws -> [String] {
    let manual = root.appendingPathComponent("docs")
    let files =
      FileManager.default.enumerator(at: manual, includingPropertiesForKeys: nil)?
      .compactMap { $0 as? URL }.filter { $0.pathExtension == "md" } ?? []
    let prefix = root.standardizedFileURL.path + "/"
    let inManual = files.map { $0.standardizedFileURL.path.replacingOccurrences(of: prefix, with: "") }
    return ["README.md", "Protocol.md"] + inManual.sorted()
  }

  /// What is wrong with each link of `text` (a file at `path` from the root), if anything.
  /// `anchors` keeps each linked file's anchors, read once.
  static func deadLinks(in text: String, at path: String, root: URL, anchors: inout [String: Set<String>]) -> [String] {
    let document = MarkdownDocument(text)
    let base = root.standardizedFileURL.path
    let here = root.appendingPathComponent(path).standardizedFileURL.path
    anchors[here] = anchors[here] ?? document.anchors
    var problems: [String] = []
    for link in document.links {
      let target = link.target
      if target.firstMatch(of: /^[a-zA-Z][a-zA-Z0-9+.-]*:/) != nil || target.hasPrefix("//") { continue }
      let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map {
        String($0).removingPercentEncoding ?? String($0)
      }
      let resolved =
        parts[0].isEmpty
        ? here
        : URL(fileURLWithPath: here).deletingLastPathComponent().appendingPathComponent(parts[0]).standardizedFileURL
          .path
      guard resolved == here || (resolved.hasPrefix(base + "/") && FileManager.default.fileExists(atPath: resolved))
      else {
        problems.append("\(path) \(link): no such file in the repository")
        continue
      }
      guard parts.count > 1, !parts[1].isEmpty else { continue }
      if anchors[resolved] == nil, resolved.hasSuffix(".md"),
        let linked = try? String(contentsOfFile: resolved, encoding: .utf8)
      {
        anchors[resolved] = MarkdownDocument(linked).anchors
      }
      guard let known = anchors[resolved] else {
        problems.append("\(path) \(link): an anchor into a file that is not Markdown")
        continue
      }
      if !known.contains(parts[1]) { problems.append("\(path) \(link): no heading there has the anchor #\(parts[1])") }
    }
    return problems
  }

  @Test("every relative link and anchor in README.md, Protocol.md and docs/ leads somewhere")
  func noDeadLinks() throws {
    let documents = try Self.documents()
    #expect(documents.contains("docs/client.md"), "the manual is not where this test looks: \(documents)")
    var linkCount = 0
    var anchors: [String: Set<String>] = [:]
    for path in documents {
      let text = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
      linkCount += MarkdownDocument(text).links.count
      for problem in Self.deadLinks(in: text, at: path, root: Self.root, anchors: &anchors) {
        Issue.record("\(problem)")
      }
    }
    #expect(linkCount >= 30, "only \(linkCount) links found: the reader is blind")
  }

  @Test("a dead file, a dead anchor and a link that leaves the repository are caught; code is not a link")
  func checkerIsNotBlind() {
    let text = """
      # Top
      ## The `stockroom` client
      ## Two I/O backends
      ## Two I/O backends
      [ok](#the-stockroom-client) [ok](#two-io-backends-1) [ok](README.md) [ok](docs/client.md#contents)
      [ok](https://example.com/nowhere) `[not a link](nowhere.md)`
      ```
      [not a link either](nowhere.md)
      ```
      [dead](nowhere.md) [dead](#two-io-backends-2) [dead](README.md#no-such-heading) [out](../../etc/passwd)
      """
    var anchors: [String: Set<String>] = [:]
    let problems = Self.deadLinks(in: text, at: "inline.md", root: Self.root, anchors: &anchors)
    #expect(problems.count == 4, "\(problems)")
    #expect(problems.allSatisfy { $0.contains("line 10") }, "\(problems)")
  }

  @Test("anchors as GitHub makes them")
  func slugs() {
    #expect(MarkdownDocument.slug(MarkdownDocument.plain("8. Example session")) == "8-example-session")
    #expect(MarkdownDocument.slug(MarkdownDocument.plain("The `stockroom` client")) == "the-stockroom-client")
    #expect(MarkdownDocument.slug(MarkdownDocument.plain("Two I/O backends")) == "two-io-backends")
    #expect(
      MarkdownDocument.slug(MarkdownDocument.plain("PostgreSQL commits, 2026-12-06 (issue 23)"))
        == "postgresql-commits-2026-12-06-issue-23")
    #expect(MarkdownDocument.slug(MarkdownDocument.plain("첫 일기: **굵게**")) == "첫-일기-굵게")
    #expect(MarkdownDocument.slug(MarkdownDocument.plain("DIARY NEW")) == "diary-new")
  }
}

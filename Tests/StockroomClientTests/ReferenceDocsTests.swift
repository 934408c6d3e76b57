import Foundation
import StockroomDaemon
import StockroomProtocol
import StockroomServer
import StockroomTestSupport
import StockroomText
import Testing

@testable import StockroomClient

/// The generated references: docs/reference/*.md, the man pages in contrib/man/ and
/// Protocol.md's command summary are what the option and command tables make, byte for byte.
/// With `STOCKROOM_WRITE_DOCS=1` the test also writes what the tables make
/// (`ManualPage.regenerateCommand`), so a new option or command reaches every one of them by
/// that single command; it still compares first and fails on what it had to rewrite, so a CI
/// that sets the variable sees drift too (run it again to see it pass).
@Suite("The references and man pages are what the tables make", .timeLimit(.minutes(30)))
struct ReferenceDocsTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  static var writing: Bool { ProcessInfo.processInfo.environment["STOCKROOM_WRITE_DOCS"] == "1" }

  /// Each generated file, by path from the repository's root, and what it must hold.
  static let files: [(path: String, text: String)] = [
    ("docs/reference/stockroomd.md", ServerManual.markdown),
    ("docs/reference/stockroom.md", ClientManual.markdown),
    ("contrib/man/stockroomd.8", ServerManual.manPage),
    ("contrib/man/stockroom.1", ClientManual.manPage),
  ]

  /// `text` with the part between Protocol.md's summary markers made `summary`; nil when the
  /// markers are missing.
  static func withSummary(_ text: String, _ summary: String) -> String? {
    guard let begin = text.range(of: CommandSummary.begin + "\n"),
      let end = text.range(of: CommandSummary.end, range: begin.upperBound..<text.endIndex)
    else { return nil }
    return String(text[..<begin.upperBound]) + summary + "\n" + String(text[end.lowerBound...])
  }

  /// Where the committed text and the tables' part first, a line of each.
  static func firstDifference(_ committed: String, _ generated: String) -> String {
    let old = committed.split(separator: "\n", omittingEmptySubsequences: false)
    let new = generated.split(separator: "\n", omittingEmptySubsequences: false)
    let line = (0..<min(old.count, new.count)).first { old[$0] != new[$0] } ?? min(old.count, new.count)
    let was = line < old.count ? String(old[line]) : "(the end)"
    let now = line < new.count ? String(new[line]) : "(the end)"
    return "line \(line + 1)\n  committed: \(was)\n  tables:    \(now)"
  }

  static func stale(_ path: String) -> String {
    if writing { return "\(path) was not what the tables make; it has been rewritten, commit it" }
    return "\(path) is not what the tables make; regenerate the references with: \(ManualPage.regenerateCommand)"
  }

  @Test("man stockroom has a REPL section: every client command :help lists, and the keys")
  func manPageCoversTheREPL() {
    let page = ClientManual.manPage
    #expect(page.contains(".SH REPL"))
    for (usage, summary) in LocalCommand.summaries {
      #expect(page.contains(ManualPage.escaped(usage)), "the man page lacks \(usage)")
      // A table cell escapes its pipes.
      let cell = summary.replacingOccurrences(of: "|", with: "\\|")
      #expect(ClientManual.markdown.contains(cell), "the reference lacks \(usage)'s summary")
    }
    for (key, _) in EditingKeys.summaries {
      #expect(page.contains(ManualPage.escaped(key)), "the man page lacks the key \(key)")
    }
  }

  @Test("docs/reference/*.md and contrib/man/*.1 are what the option and command tables make")
  func referencesAreGenerated() throws {
    for (path, text) in Self.files {
      let url = Self.root.appendingPathComponent(path)
      let committed = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
      guard committed != text else { continue }
      Issue.record("\(Self.stale(path))\n\(Self.firstDifference(committed, text))")
      if Self.writing {
        // Atomically, so that the man pages' groff check reads the old page or the new, whole.
        try FileManager.default.createDirectory(
          at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
      }
    }
  }

  @Test("Protocol.md's command summary is what the command table makes")
  func protocolSummaryIsGenerated() throws {
    let url = Self.root.appendingPathComponent("Protocol.md")
    let text = try String(contentsOf: url, encoding: .utf8)
    let expected = try #require(
      Self.withSummary(text, CommandSummary.markdown),
      "Protocol.md has no command summary between \(CommandSummary.begin) and \(CommandSummary.end)")
    if text != expected {
      Issue.record("\(Self.stale("Protocol.md's command summary"))\n\(Self.firstDifference(text, expected))")
      if Self.writing { try expected.write(to: url, atomically: true, encoding: .utf8) }
    }
  }

  @Test("the summary has a line for every command and subcommand, and the references every option and key")
  func everyEntryIsThere() {
    let summary = CommandSummary.markdown.split(separator: "\n")
    #expect(summary.count == CommandTable.allWithPaths.count + 2)
    for (path, _) in CommandTable.allWithPaths {
      #expect(summary.contains { $0.hasPrefix("| [`\(path)") }, "no summary line for \(path)")
    }
    for option in ServerOptions.all {
      #expect(ServerManual.markdown.contains("`\(option.synopsis)`"), "reference lacks --\(option.name)")
      #expect(ServerManual.manPage.contains(ManualPage.escaped(option.synopsis)), "man page lacks --\(option.name)")
    }
    for option in ClientOptionTable.all {
      #expect(ClientManual.markdown.contains("`\(option.synopsis)`"), "reference lacks \(option.synopsis)")
      #expect(ClientManual.manPage.contains(ManualPage.escaped(option.synopsis)), "man page lacks \(option.synopsis)")
    }
    for key in ClientConfigKey.all {
      #expect(ClientManual.markdown.contains("`\(key.name) = "), "reference lacks the key \(key.name)")
    }
  }

  @Test("a changed table or summary is caught: the check is not blind")
  func staleFilesFail() throws {
    let text = "before\n\(CommandSummary.begin)\nold\n\(CommandSummary.end)\nafter\n"
    #expect(Self.withSummary(text, "new") == "before\n\(CommandSummary.begin)\nnew\n\(CommandSummary.end)\nafter\n")
    #expect(Self.withSummary("no markers\n", "new") == nil)
  }

  /// groff warns (`-ww`) about whatever it cannot lay out as written: an unknown request, a bad
  /// escape, a line that starts a control by accident. Scripts/test installs groff-base.
  @Test("the man pages render under groff -man -ww without a warning", arguments: ["stockroomd.8", "stockroom.1"])
  func manPagesRender(_ name: String) throws {
    // The committed page, even while writing: `referencesAreGenerated` replaces it atomically,
    // so this reads the old page or the new one, never half of one.
    let page = Self.root.appendingPathComponent("contrib/man/\(name)").path
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-man-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("out").path
    let errors = folder.appendingPathComponent("errors").path
    let status = try Subprocess.run(
      "/usr/bin/groff", ["-man", "-Tutf8", "-ww", "-z", page], environment: ["PATH": "/usr/bin:/bin"],
      stdout: output, stderr: errors)
    let warnings = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
    #expect(status == 0 && warnings.isEmpty, "groff on \(name): exit \(status)\n\(warnings)")
  }

  /// `--help` ends by saying where the manual is, and every file or folder it names exists.
  @Test("stockroomd --help and stockroom --help name the man page and docs that exist")
  func helpPointsToTheManual() {
    let pointers = [
      (ServerConfiguration.usage, ServerConfiguration.manualPointer, "man stockroomd"),
      (ClientOptions.usage, ClientOptions.manualPointer, "man stockroom "),
    ]
    for (usage, pointer, page) in pointers {
      #expect(usage.hasSuffix(pointer) && pointer.contains(page), "--help does not end with the manual's place")
      let paths = pointer.matches(of: /(?:docs|contrib)\/[A-Za-z\/.]+[A-Za-z\/]/).map { String($0.0) }
      #expect(paths.count >= 3, "\(paths)")
      for path in paths {
        #expect(
          FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(path).path),
          "--help names \(path), which is not in the repository")
      }
    }
  }

  /// Every spelling in the client's option table is one `ClientOptions.parse` takes, so the
  /// table `--help` is written from cannot list an option the client would refuse.
  @Test("every option in the client's table is one the client takes, and every config key one it reads")
  func clientTableMatchesParsing() throws {
    for option in ClientOptionTable.all where option.isFlag {
      for spelling in option.spellings {
        var words = [spelling]
        if let placeholder = option.placeholder {
          words.append(["N": "2", "SECONDS": "0.5", "PORT": "7879"][placeholder] ?? "x")
        }
        switch spelling {
        case "--cacert", "--insecure", "--cert": words.insert("--tls", at: 0)
        case "--key": words = ["--tls", "--cert", "x"] + words
        case "--password-file": words += ["-u", "alice"]
        case "-r", "-i": words += ["-r", "2", "PING"]
        default: break
        }
        #expect(throws: Never.self, "\(spelling) is refused") { _ = try ClientOptions.parse(words) }
      }
    }
    for key in ClientConfigKey.all {
      let value = key.value.split(separator: "|").first.map(String.init) ?? "x"
      let line = "\(key.name) = \(["PORT": "7879", "on": "on"][value] ?? value)\n"
      #expect(throws: Never.self, "\(key.name) is refused") { _ = try ClientConfig.parse(line, path: "config") }
    }
    #expect(ClientConfig.keys == ClientConfigKey.all.map(\.name))
  }

  /// The other way round: every option the parser's switch takes (read from its source, as the
  /// architecture tests read theirs) is in the table, so none is missing from --help and the
  /// man page. `--no-colour` is the one spelling kept out on purpose, as `colour` is for the key.
  @Test("every option ClientOptions.parse takes is in the client's option table")
  func parsingMatchesClientTable() throws {
    let source = try String(
      contentsOf: Self.root.appendingPathComponent("Sources/StockroomClient/Session/ClientOptions.swift"),
      encoding: .utf8)
    let parsed = source.matches(of: /\n\s*case ((?:"-[^"]*"(?:, )?)+):/).flatMap { match in
      match.1.matches(of: /"(-[^"]*)"/).map { String($0.1) }
    }
    #expect(parsed.count >= 20, "the parser's options were not found: \(parsed)")
    let listed = Set(ClientOptionTable.all.flatMap(\.spellings))
    for spelling in parsed where !["--", "--no-colour"].contains(spelling) {
      if !listed.contains(spelling) { Issue.record("\(spelling) is parsed but not in ClientOptionTable") }
    }
  }
}

import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The example sessions in Protocol.md, README.md and the manual (docs/*.md), run against a real server: every line
/// the document shows the server sending must be what it sends, so the examples cannot drift.
@Suite("The documents' example sessions are what the server says", .timeLimit(.minutes(30)))
struct DocSessionTests {
  static func document(_ name: String) -> String {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent(name)
    return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
  }

  /// What may differ from run to run and is not the contract: times, the release number (the
  /// protocol version stays), ports, connection ids.
  static func normalised(_ line: String) -> String {
    line.replacing(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/, with: "<time>")
      .replacing(/(?<before>stockroomd |server=)\d+\.\d+\.\d+/) { $0.before + "<version>" }
      .replacing(/127\.0\.0\.1:\d+/, with: "127.0.0.1:<port>")
      .replacing(/\bid=\d+/, with: "id=<n>")
  }

  /// Each connection's lines as the server sent them, on a fresh server of its own per session
  /// (the documents say "a fresh server"), with the greeting dropped where the document does.
  /// A README command runs the real `nc`, with the document's flags and this server's port.
  static func run(_ session: DocSession) throws -> [[String]] {
    let server = try TestServer()
    var transcripts: [[String]] = []
    for connection in session.connections {
      if session.pacing == .piped {
        let input = connection.requests.map { $0 + "\n" }.joined()
        let output = try Netcat.run(connection.netcatFlags, port: server.port, input: input)
        transcripts.append(output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLast())
        continue
      }
      let client = try server.client(greeted: false)
      let greeting = try client.readReply().lines
      for line in connection.setup {
        let reply = try client.request(line)
        guard reply.isOK else {
          let word = line.split(separator: " ").first ?? ""
          throw LineClient.Failure(description: "\(session): setup \(word) answered \(reply.lines.last ?? "")")
        }
      }
      let shown = client.transcript.count
      for request in connection.requests { try client.request(request) }
      // Whatever is still owed (a watcher's event) comes before the close.
      shutdown(client.fd, Int32(SHUT_WR))
      _ = try client.readsToEnd()
      transcripts.append((connection.showsGreeting ? greeting : []) + client.transcript[shown...])
    }
    return transcripts
  }

  /// Nothing, or what a reader of the failure needs: where the document and the server part,
  /// and all the server said, to paste in. Requests are named by their first word only, since
  /// some carry passwords.
  static func mismatch(_ session: DocSession) throws -> String? {
    let actual = try run(session)
    for (index, connection) in session.connections.enumerated() {
      let documented = connection.replies.map(normalised)
      let sent = actual[index].map(normalised)
      guard documented != sent else { continue }
      let common = min(documented.count, sent.count)
      let first = (0..<common).first { documented[$0] != sent[$0] } ?? common
      let expected = first < documented.count ? documented[first] : "(nothing more)"
      let got = first < sent.count ? sent[first] : "(nothing more)"
      let words = connection.requests.map { $0.split(separator: " ").first.map(String.init) ?? "" }
      return """
        \(session), connection \(index + 1) (\(words.joined(separator: ", "))): line \(first + 1) differs
          document: \(expected)
          server:   \(got)
        the server said:
        \(actual[index].joined(separator: "\n"))
        """
    }
    return nil
  }

  /// Every session's mismatch or error, in document order. Each has a server of its own, so
  /// they run two at a time: most of the time goes to Argon2 in REGISTER and LOGIN. The
  /// threads are Dispatch's, not the test pool's, and this one holds its thread meanwhile.
  static func problems(_ sessions: [DocSession]) -> [String] {
    let found = Mutex<[Int: String]>([:])
    let next = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: 2) { _ in
      while true {
        let index = next.add(1, ordering: .relaxed).oldValue
        guard index < sessions.count else { return }
        let problem: String?
        do {
          problem = try mismatch(sessions[index])
        } catch {
          problem = "\(sessions[index]): \(error)"
        }
        if let problem { found.withLock { $0[index] = problem } }
      }
    }
    return found.withLock { $0.sorted { $0.key < $1.key }.map(\.value) }
  }

  @Test("Protocol.md's marked sessions, section 8's among them, match a real server line for line")
  func protocolSessions() throws {
    let sessions = try DocSession.all(in: Self.document("Protocol.md"), file: "Protocol.md")
    #expect(sessions.contains { $0.heading == "8. Example session" }, "section 8's session is not marked")
    #expect(sessions.count >= 8, "sessions were unmarked: \(sessions.map(\.description))")
    for problem in Self.problems(sessions) { Issue.record("\(problem)") }
  }

  @Test("README's netcat sessions match a real server line for line")
  func readmeSessions() throws {
    let sessions = try DocSession.all(in: Self.document("README.md"), file: "README.md")
    let netcat = sessions.filter { $0.heading == "A netcat session" }
    #expect(netcat.count == 2, "README's netcat sessions are not both marked")
    #expect(netcat.allSatisfy { $0.pacing == .piped })
    for problem in Self.problems(sessions) { Issue.record("\(problem)") }
  }

  /// The manual's files, by name (`docs/client.md`), in a stable order.
  static func manualFiles() -> [String] {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("docs")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
  }

  @Test("the manual's marked sessions (docs/*.md) match a real server line for line")
  func manualSessions() throws {
    let files = Self.manualFiles()
    #expect(files.contains("docs/client.md"), "docs/ was not found: \(files)")
    var sessions: [DocSession] = []
    for file in files { sessions += try DocSession.all(in: Self.document(file), file: file) }
    for problem in Self.problems(sessions) { Issue.record("\(problem)") }
  }

  @Test("a changed example fails: the check is not blind")
  func changedExampleFails() throws {
    let text = """
      ## Example
      ```session
      > PING
      OK PONG
      > ORDER banana_juice
      * banana_juice kind=juice quantity=1
      * banana kind=taken quantity=2 stock=8
      OK order=1
      ```
      """
    let session = try #require(try DocSession.all(in: text, file: "inline").first)
    #expect(try Self.mismatch(session) == nil)
    for (from, to) in [("stock=8", "stock=7"), ("OK PONG", "OK PONG!"), ("OK order=1\n", "OK order=1\nOK extra\n")] {
      let changed = try #require(
        try DocSession.all(in: text.replacingOccurrences(of: from, with: to), file: "inline").first)
      #expect(try Self.mismatch(changed) != nil, "\(to) passed")
    }
  }

  @Test("a setup comment runs first on the same connection, unseen, and must itself succeed")
  func setup() throws {
    let text = """
      <!-- session setup:
      ORDER banana_juice
      -->

      ```session
      > STOCK banana
      * banana kind=fruit stock=8 initial=10
      OK 1 item
      ```
      """
    let session = try #require(try DocSession.all(in: text, file: "inline").first)
    #expect(session.connections.first?.setup == ["ORDER banana_juice"])
    #expect(try Self.mismatch(session) == nil)
    // Prose between a comment and a block: the comment is not that block's setup.
    let detached = try #require(
      try DocSession.all(in: text.replacingOccurrences(of: "-->\n", with: "-->\nSome prose.\n"), file: "inline").first)
    #expect(detached.connections.first?.setup == [])
    #expect(try Self.mismatch(detached) != nil)
    let refused = try #require(
      try DocSession.all(
        in: text.replacingOccurrences(of: "ORDER banana_juice", with: "ORDER eiffel_tower"), file: "inline"
      )
      .first)
    #expect(throws: LineClient.Failure.self) { try Self.mismatch(refused) }
  }

  @Test("times, versions, ports and connection ids are normalised; nothing else is")
  func normalisation() {
    #expect(Self.normalised("created=2026-12-01T03:53:38Z x") == "created=<time> x")
    #expect(Self.normalised("OK stockroomd 0.1.0 protocol=2 ready") == "OK stockroomd <version> protocol=2 ready")
    #expect(
      Self.normalised("OK hello protocol=2 server=1.22.3 user=guest")
        == "OK hello protocol=2 server=<version> user=guest")
    #expect(Self.normalised("peer=127.0.0.1:55870 id=12") == "peer=127.0.0.1:<port> id=<n>")
    #expect(Self.normalised("* p3 kind=product price=24.50 order=1") == "* p3 kind=product price=24.50 order=1")
  }
}

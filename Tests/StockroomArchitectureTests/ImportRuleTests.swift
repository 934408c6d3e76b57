import Foundation
import Testing

/// The layers stay layers: each target's source files import only what its layer may use. The
/// compiler checks that a file's imports are declared dependencies; this checks the declared
/// ones are the right ones, and that C modules a dependency brings along (epoll through
/// StockroomSystem) are not reached for around the rule.
@Suite(.timeLimit(.minutes(30))) struct ImportRuleTests {
  static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")

  /// The engine has no sockets, no event loop and no Dispatch: bytes in, replies out.
  @Test func engineImportsNoTransportNoDispatch() throws {
    try expectImports(
      of: "StockroomEngine",
      allowed: [
        "Foundation", "Synchronization", "Glibc", "Musl", "StockroomDomain", "StockroomProtocol", "StockroomText",
        "StockroomSecurity", "StockroomSystem", "StockroomLogging",
      ])
    try expectNoCalls(
      of: "StockroomEngine",
      ["socket", "accept", "accept4", "bind", "listen", "connect", "sockaddr", "epoll", "eventfd"],
      types: ["Dispatch", "TLSChannel", "TLSContext", "SocketAddress", "EventLoop", "Listener"])
  }

  /// The engine drives no database: SQLite and libpq are the persistence target's
  /// (`StockroomPersistence`), which the engine reaches only through its `ChangePath` seam and
  /// the `ShopHistory` it is handed. So no engine file imports the storage layer or a driver, or
  /// names a driver's type, its errors included: a driver's failure reaches the engine as a
  /// `CommitFailure`, classified beside the driver.
  @Test func engineDrivesNoStorage() throws {
    try expectImports(
      of: "StockroomEngine", forbidden: ["StockroomStorage", "StockroomPersistence", "CSQLite", "CLibPQ"])
    try expectNoNames(
      of: "StockroomEngine",
      ["SQLiteError", "PostgresError", "PostgresShopDatabase", "PostgresChangeFeed", "ShopDatabase", "SQLiteDatabase"])
  }

  /// The persistence target sits between the engine and the storage layer, and below the server:
  /// it reaches neither sockets nor the layers above it, and storage never reaches up to it.
  @Test func persistenceSitsBetweenEngineAndStorage() throws {
    try expectImports(
      of: "StockroomPersistence",
      forbidden: ["StockroomTransport", "StockroomServer", "StockroomDaemon", "StockroomFixtures"])
    try expectImports(
      of: "StockroomStorage", forbidden: ["StockroomEngine", "StockroomPersistence", "StockroomServer"])
  }

  /// The engine and the persistence target read the time only through the `EngineClock` they
  /// are given, so a test can hand them its own: no `Date()`, `Date.now`, `ContinuousClock`,
  /// `SuspendingClock` or `MonotonicClock` but in the clock the server hands them.
  @Test func timeIsReadOnlyThroughTheEngineClock() throws {
    let reads = [#"Date\(\)"#, #"Date\.now"#, "ContinuousClock", "SuspendingClock", #"MonotonicClock\b"#]
    let patterns = try reads.map { read in (name: read, pattern: try Regex("(^|[^A-Za-z0-9_])\(read)")) }
    for target in ["StockroomEngine", "StockroomPersistence"] {
      let files = try Self.swiftFiles(of: target).filter { $0.lastPathComponent != "MonotonicEngineClock.swift" }
      #expect(!files.isEmpty, "\(target) has no Swift file")
      try expectNoLine(in: files, of: target, patterns, "reads the clock with")
    }
  }

  /// The engine starts no thread of its own, as NIOCore starts none: every thread it runs on
  /// (the committer, the shared writer and its feed, the pools' workers, the background check)
  /// is made by a `ThreadStarter` that whoever builds the engine hands it. The names are matched
  /// as whole words, after a dot too (`Thread.detachNewThread`, `Foundation.Thread`).
  /// The persistence target's threads (the committer's, the writer's, its feed's and flusher's)
  /// are made the same way.
  @Test func engineStartsNoThreadOfItsOwn() throws {
    for target in ["StockroomEngine", "StockroomPersistence"] {
      try expectNoNames(of: target, ["NamedThread", "Thread", "pthread_create", "detachNewThread", "DispatchQueue"])
    }
  }

  /// The shop's rules and the wire know nothing but text.
  @Test func domainAndProtocolImportOnlyTextAndFoundation() throws {
    try expectImports(of: "StockroomDomain", allowed: ["Foundation", "StockroomText"])
    try expectImports(of: "StockroomProtocol", allowed: ["Foundation", "StockroomText"])
  }

  /// The client speaks the protocol; it never links the server's inside.
  @Test func clientNeverImportsTheServer() throws {
    try expectImports(
      of: "StockroomClient", forbidden: ["StockroomServer", "StockroomEngine", "StockroomTransport", "StockroomDaemon"])
    try expectImports(
      of: "stockroom", forbidden: ["StockroomServer", "StockroomEngine", "StockroomTransport", "StockroomDaemon"])
  }

  /// Lower layers never reach up: transport below the server, the server below the daemon, and
  /// the bench measures through the wire.
  @Test func layersNeverImportUpward() throws {
    try expectImports(of: "StockroomTransport", forbidden: ["StockroomServer", "StockroomDaemon"])
    try expectImports(of: "StockroomServer", forbidden: ["StockroomDaemon"])
    try expectImports(of: "StockroomLogging", forbidden: ["StockroomEngine", "StockroomTransport", "StockroomServer"])
    try expectImports(
      of: "stockroom-bench", forbidden: ["StockroomServer", "StockroomEngine", "StockroomTransport", "StockroomDaemon"])
    try expectImports(of: "stockroomd", allowed: ["StockroomDaemon"])
  }

  /// What the bench and the tests set up (clusters, certificates, child programs) never ships in
  /// a program users run.
  @Test func fixturesShipInNothingUsersRun() throws {
    for target in [
      "StockroomSystem", "StockroomEngine", "StockroomPersistence", "StockroomTransport", "StockroomServer",
      "StockroomDaemon", "StockroomClient", "stockroomd", "stockroom",
    ] {
      try expectImports(of: target, forbidden: ["StockroomFixtures"])
    }
  }

  /// The Dispatch backend, and the loop core both backends share, name nothing of epoll: no
  /// CStockroomSystem (whose header includes <sys/epoll.h>), no epoll, eventfd or timerfd. The
  /// package is Linux-only all the same (docs/architecture.md); this keeps those files a start
  /// for a port, not a port.
  @Test func dispatchBackendUsesNothingLinuxSpecific() throws {
    let portable = [
      "DispatchBackend", "DispatchDescriptor", "EventLoop", "HangUpSweep", "LoopBackend", "Readiness", "TimerHeap",
    ]
    let files = try Self.swiftFiles(of: "StockroomTransport").filter {
      portable.contains($0.deletingPathExtension().lastPathComponent)
    }
    #expect(files.count == portable.count, "the loop's portable files are not all where this test looks")
    for file in files {
      try expectImports(of: [file], in: "StockroomTransport", forbidden: ["CStockroomSystem"])
      try expectNoCalls(in: [file], of: "StockroomTransport", ["epoll", "eventfd", "timerfd"], types: [])
    }
  }

  /// TLS is a stage the connection drives (`ConnectionStream`: the socket, or TLS over it),
  /// not something written through it: `Connection` makes its stream and nothing more of TLS,
  /// and no socket call of its own reads, writes or shuts the descriptor.
  @Test func tlsIsAStageOfTheConnection() throws {
    let connection = try Self.swiftFiles(of: "StockroomTransport").filter { $0.lastPathComponent == "Connection.swift" }
    #expect(connection.count == 1, "Connection.swift is not where this test looks")
    try expectNoCalls(
      in: connection, of: "StockroomTransport", ["recv", "send", "shutdown", "read", "write"],
      types: [#"tls\."#, #"tls\?\."#, #"Syscall\.read"#, #"Syscall\.write"#])
  }

  /// The REPL client and the bench speak through one blocking socket, `ClientSocket`
  /// (StockroomSocket): neither opens, resolves, tunes or wraps a socket of its own.
  @Test func clientAndBenchShareOneSocket() throws {
    for target in ["StockroomClient", "stockroom-bench"] {
      try expectNoCalls(
        of: target, ["socket", "getaddrinfo", "inet_pton", "setsockopt", "SSL"], types: ["TLSChannel"])
      #expect(
        try Self.imports(of: target).contains { $0.modules.contains("StockroomSocket") },
        "\(target) does not use StockroomSocket")
    }
  }

  /// Every rule above reads real files: a target that is not there would pass every rule.
  @Test func everyTargetNamedHasSources() throws {
    for target in [
      "StockroomEngine", "StockroomTransport", "StockroomServer", "StockroomDaemon", "StockroomLogging",
      "StockroomFixtures", "StockroomPersistence", "StockroomStorage",
    ] {
      #expect(try !Self.imports(of: target).isEmpty, "\(target) has no Swift file")
    }
  }

  // MARK: Reading the sources

  /// Each Swift file of `target`, with the modules it imports.
  static func imports(of target: String) throws -> [(file: String, modules: [String])] {
    try imports(in: swiftFiles(of: target))
  }

  static func imports(in files: [URL]) throws -> [(file: String, modules: [String])] {
    try files.map { file in
      let text = try String(contentsOf: file, encoding: .utf8)
      let modules = text.split(separator: "\n").compactMap { line -> String? in
        let words = line.split(separator: " ").map(String.init)
        guard let index = words.firstIndex(of: "import"), index + 1 < words.count,
          words[..<index].allSatisfy({ $0.hasPrefix("@") })
        else { return nil }
        return words[index + 1]
      }
      return (file.lastPathComponent, modules)
    }
  }

  static func swiftFiles(of target: String) throws -> [URL] {
    try swiftFiles(in: sources.appendingPathComponent(target))
  }

  static func swiftFiles(in folder: URL) throws -> [URL] {
    guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
    return walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
  }

  func expectImports(of target: String, allowed: Set<String>) throws {
    for (file, modules) in try Self.imports(of: target) {
      for module in modules where !allowed.contains(module) {
        Issue.record("\(target)/\(file) imports \(module), which \(target) may not")
      }
    }
  }

  func expectImports(of target: String, forbidden: Set<String>) throws {
    try expectImports(of: Self.swiftFiles(of: target), in: target, forbidden: forbidden)
  }

  func expectImports(of files: [URL], in target: String, forbidden: Set<String>) throws {
    for (file, modules) in try Self.imports(in: files) {
      for module in modules where forbidden.contains(module) {
        Issue.record("\(target)/\(file) imports \(module), which \(target) may not")
      }
    }
  }

  /// No line outside a comment calls any of `calls` as a C function (`socket(`, `epoll_wait(`,
  /// `sockaddr_in`; a method such as `feed.listen(` is not one), or names a type that starts with
  /// any of `types` (`DispatchQueue`).
  func expectNoCalls(of target: String, _ calls: [String], types: [String]) throws {
    try expectNoCalls(in: Self.swiftFiles(of: target), of: target, calls, types: types)
  }

  /// No line outside a comment names any of `names` as a whole word, whatever comes before or
  /// after it: `Thread(`, `Thread.current`, `.detachNewThread`, `[NamedThread]`, but not
  /// `ThreadStarter` or `WorkerThread`.
  func expectNoNames(of target: String, _ names: [String]) throws {
    try expectNoNames(in: Self.swiftFiles(of: target), of: target, names)
  }

  func expectNoNames(in files: [URL], of target: String, _ names: [String]) throws {
    let patterns = try names.map { name in try Regex("(^|[^A-Za-z0-9_])\(name)([^A-Za-z0-9_]|$)") }
    try expectNoLine(in: files, of: target, Array(zip(names, patterns)), "names")
  }

  func expectNoCalls(in files: [URL], of target: String, _ calls: [String], types: [String]) throws {
    let names = calls + types
    let patterns =
      try calls.map { name in try Regex("(^|[^.A-Za-z0-9_])\(name)[(_]") }
      + types.map { name in try Regex("(^|[^.A-Za-z0-9_])\(name)") }
    try expectNoLine(in: files, of: target, Array(zip(names, patterns)), "uses")
  }

  /// Records every line outside a comment that matches one of `patterns`, as "`verb` name".
  func expectNoLine(
    in files: [URL], of target: String, _ patterns: [(name: String, pattern: Regex<AnyRegexOutput>)], _ verb: String
  ) throws {
    for file in files {
      let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
      for (number, line) in lines.enumerated() {
        let code = line.trimmingCharacters(in: .whitespaces)
        guard !code.hasPrefix("//") else { continue }
        for (name, pattern) in patterns where code.contains(pattern) {
          Issue.record("\(target)/\(file.lastPathComponent):\(number + 1) \(verb) \(name)")
        }
      }
    }
  }
}

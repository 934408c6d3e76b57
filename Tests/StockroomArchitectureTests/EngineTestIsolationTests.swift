import Foundation
import Testing

/// The engine's tests stay the engine's: `StockroomEngineTests` and the harness it runs on
/// (`StockroomEngineHarness`) open no socket, start no server and link no storage driver, so
/// they build and run without SQLite or libpq, and a test that needs a socket or a store on
/// disk belongs to the server's tests (issue 42). Checked in the sources, as `ImportRuleTests`
/// checks the layers, and in Package.swift, where a dependency would link what no file imports.
/// (CStockroomSystem comes along with StockroomSystem, as it does for the engine itself; the
/// calls into it that would open a socket are what the source check looks for.)
@Suite(.timeLimit(.minutes(30))) struct EngineTestIsolationTests {
  static let root = ImportRuleTests.sources.deletingLastPathComponent()
  static let targets = ["StockroomEngineTests", "StockroomEngineHarness"]
  static let forbiddenModules: Set<String> = [
    "StockroomServer", "StockroomTransport", "StockroomStorage", "StockroomPersistence", "StockroomDaemon",
    "StockroomTLS", "StockroomSocket", "StockroomFixtures", "StockroomTestSupport", "CSQLite", "CLibPQ",
    "COpenSSL", "CMicroHTTPD",
  ]

  static func files(of target: String) throws -> [URL] {
    try ImportRuleTests.swiftFiles(in: root.appendingPathComponent("Tests").appendingPathComponent(target))
  }

  @Test func engineTestsImportNoSocketNoServerNoStorage() throws {
    let rules = ImportRuleTests()
    for target in Self.targets {
      let files = try Self.files(of: target)
      #expect(!files.isEmpty, "Tests/\(target) has no Swift file")
      try rules.expectImports(of: files, in: target, forbidden: Self.forbiddenModules)
      // Glibc's socket calls (a `connect(` with the descriptor's arguments, not the harness's
      // own `connect(from:)`), and the server's tests' socket clients and servers by name.
      try rules.expectNoCalls(
        in: files, of: target, ["socket", "bind", "listen", "accept", "accept4", "setsockopt", "sockaddr", "epoll"],
        types: [])
      try rules.expectNoLine(
        in: files, of: target, [("connect(fd, …)", try Regex(#"(^|[^.A-Za-z0-9_])connect\([^)]*,"#))], "calls")
      try rules.expectNoNames(
        in: files, of: target,
        [
          "TestServer", "LineClient", "DaemonProcess", "ShopServer", "DataDirectory", "StoreOpening", "CatalogSource",
          "ShopDatabase", "Committer", "SharedWriter", "PostgresCluster", "TLSChannel", "EventLoop",
        ])
    }
  }

  /// What SwiftPM links: the targets' dependencies, followed through every target they name.
  @Test func engineTestsLinkNoSocketNoServerNoStorage() throws {
    let graph = try Self.dependencyGraph()
    for target in Self.targets {
      #expect(graph[target] != nil, "Package.swift declares no \(target)")
      var seen: Set<String> = []
      var waiting = [target]
      while let next = waiting.popLast() {
        for dependency in graph[next] ?? [] where seen.insert(dependency).inserted { waiting.append(dependency) }
      }
      for module in seen.intersection(Self.forbiddenModules).sorted() {
        Issue.record("\(target) links \(module) (Package.swift), which the engine's tests may not")
      }
    }
  }

  /// Each target in Package.swift with the targets its `dependencies:` names: the text from one
  /// `name: "…"` to the next, as the manifest lays them out one target at a time.
  static func dependencyGraph() throws -> [String: [String]] {
    let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
    let name = try Regex(#"\.(target|testTarget|executableTarget|systemLibrary)\(\s*name: "([^"]+)""#)
    let quoted = try Regex(#""([^"]+)""#)
    let starts = manifest.matches(of: name)
    var graph: [String: [String]] = [:]
    for (index, start) in starts.enumerated() {
      let end = index + 1 < starts.count ? starts[index + 1].range.lowerBound : manifest.endIndex
      let body = manifest[start.range.upperBound..<end]
      guard let target = start.output[2].substring.map(String.init) else { continue }
      guard let list = body.range(of: "dependencies: ["),
        let close = body[list.upperBound...].firstIndex(of: "]")
      else {
        graph[target] = []
        continue
      }
      graph[target] = body[list.upperBound..<close].matches(of: quoted).compactMap {
        $0.output[1].substring.map(String.init)
      }
    }
    return graph
  }
}

import Foundation
import StockroomFixtures
import Testing

@testable import stockroom_bench

/// The bench's own launcher, as the comparison makes it, over a work folder of its own: the
/// debug stockroomd built beside this test bundle, and the installed redis-server.
struct BenchServers {
  let workdir: String
  let launcher: ServerLauncher

  /// A launcher with `--smoke`'s sizes (50 idle connections, so --max-clients 150).
  init() throws {
    let redis = try #require(ChildProcess.find("redis-server", path: "/usr/bin:/bin"), "redis-server is installed")
    workdir = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: workdir, withIntermediateDirectories: true)
    let options = try #require(try ComparisonOptions.parse(["--smoke"], environment: [:]))
    launcher = ServerLauncher(
      binaries: Self.binaries, redisServer: redis, workdir: workdir, options: options,
      certificates: try LoopbackCertificates.shared())
  }

  /// The folder of the debug build, where `swift build` put stockroomd and stockroom-bench.
  static var binaries: String {
    let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
    return URL(fileURLWithPath: executable).deletingLastPathComponent().path
  }

  func remove() {
    try? FileManager.default.removeItem(atPath: workdir)
  }

  /// Whether `pid` is still a child of this process (running, or ended and not reaped).
  static func isChild(_ pid: pid_t) -> Bool {
    ServerProcess.children(of: getpid()).contains(pid)
  }

  /// What the server itself counted: for stockroomd a field of `INFO stats` (`commands`,
  /// `orders`), for redis-server the calls of one command from `INFO commandstats`.
  static func counter(_ server: RunningServer, _ name: String) throws -> Int {
    let socket = try BlockingSocket(host: "127.0.0.1", port: server.port, timeoutSeconds: 5, bufferBytes: 16 * 1024)
    switch server.target {
    case .stockroom:
      try StockroomDialect().greet(socket)
      try socket.send(Array("INFO stats\n".utf8))
      let text = try socket.nextReply(StockroomDialect(), keepingText: true).text
      let word = try #require(text.split(whereSeparator: \.isWhitespace).first { $0.hasPrefix("\(name)=") })
      return try #require(Int(word.dropFirst(name.count + 1)))
    case .redis:
      try socket.send(RedisDialect.command(["INFO", "commandstats"]))
      let text = try socket.nextReply(RedisDialect(), keepingText: true).text
      // `cmdstat_ping:calls=300,usec=...`; no line at all before the first call.
      guard let line = text.split(whereSeparator: \.isNewline).first(where: { $0.hasPrefix("cmdstat_\(name):") })
      else { return 0 }
      let calls = try #require(line.split(separator: ",").first?.split(separator: "=").last)
      return try #require(Int(calls))
    case .ceiling:
      throw BenchError("stockroom-ceiling counts nothing; its replies are the count")
    }
  }
}

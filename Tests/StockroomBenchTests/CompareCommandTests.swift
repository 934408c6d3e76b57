import Foundation
import StockroomFixtures
import StockroomSystem
import Testing

/// `stockroom-bench compare` run as `Scripts/bench` runs it, for what it decides before starting
/// any server: help, and refusals with exit status 64 and the message on standard error.
@Suite("stockroom-bench compare as a process", .timeLimit(.minutes(30)))
struct CompareCommandTests {
  /// The debug `stockroom-bench`, built beside this test bundle.
  static var binary: String {
    let executable = URL(
      fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? "")
    return executable.deletingLastPathComponent().appendingPathComponent("stockroom-bench").path
  }

  /// Runs `stockroom-bench SUBCOMMAND arguments` (compare unless told) with `stdin` as its
  /// standard input; its exit status and what it wrote.
  static func run(
    _ arguments: [String], _ environment: [String: String] = [:], subcommand: String = "compare",
    stdin: String = "/dev/null"
  ) throws -> (status: Int32, out: String, err: String) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("compare-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let (out, err) = (folder.appendingPathComponent("out").path, folder.appendingPathComponent("err").path)
    let status = try Subprocess.run(
      binary, [subcommand] + arguments, environment: environment.merging(["PATH": "/usr/bin:/bin"]) { a, _ in a },
      stdin: stdin, stdout: out, stderr: err)
    return (status, try String(contentsOfFile: out, encoding: .utf8), try String(contentsOfFile: err, encoding: .utf8))
  }

  @Test("--help prints the usage and exits 0, starting nothing")
  func help() throws {
    let result = try Self.run(["--help"])
    #expect(result.status == 0)
    #expect(result.out.hasPrefix("Issue 11's comparison: Stockroom against redis-server"))
    #expect(result.out.contains("BENCH_POSTGRES"))
    #expect(result.err.isEmpty)
  }

  @Test("an unknown flag or a bad BENCH_* value exits 64 and says what was wrong")
  func refusals() throws {
    let flag = try Self.run(["--smoke", "--fast"])
    #expect(flag.status == 64)
    #expect(flag.err == "unknown option '--fast'; try --help\n")
    #expect(flag.out.isEmpty)
    let rows = try Self.run(["--smoke"], ["BENCH_ROWS": "ping1 pong"])
    #expect(rows.status == 64)
    #expect(rows.err == "BENCH_ROWS: no row 'pong'\n")
  }
}

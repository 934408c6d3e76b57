import Foundation
import Testing

/// A real `stockroom-bench compare --smoke`, as `Scripts/bench --smoke` runs it (the debug build
/// here): every row against both servers, and the check of their figures passing.
@Suite("a real compare --smoke run", .timeLimit(.minutes(30)))
struct SmokeRunTests {
  @Test("every row runs on both servers and the figure check finds them all sane")
  func smoke() throws {
    // The table's rows only: the I/O backend and PostgreSQL sections are Stockroom's alone.
    let result = try CompareCommandTests.run(["--smoke"], ["BENCH_IO": "0", "BENCH_POSTGRES": "0"])
    #expect(result.status == 0, "stderr:\n\(result.err)")
    #expect(result.out.contains("--smoke: every row has sane figures for both servers (10 rows)"))
    let faults = result.err.split(separator: "\n").filter { $0.hasPrefix("figures: ") || $0.hasPrefix("--smoke: ") }
    #expect(faults.isEmpty, "\(faults)")
    for row in ["PING, 1 in flight", "C ceiling: PING", "idle connections", "WATCH fan-out", "TLS: durable order"] {
      #expect(result.out.contains("| \(row)"), "the table has \(row)")
    }
  }
}

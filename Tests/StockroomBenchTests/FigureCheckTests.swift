import Foundation
import Testing

@testable import stockroom_bench

/// `compare --smoke`'s check of the table's rows: a report in which every row has sane figures
/// for both servers passes; one bad figure, a missing run or a failed one is refused by name.
@Suite("the comparison's check of every row's figures", .timeLimit(.minutes(30)))
struct FigureCheckTests {
  /// --smoke's sizes: one round, 300 requests a row, 50 idle connections, 20 watchers, 10 changes.
  static let options = (try? ComparisonOptions.parse(["--smoke"], environment: [:])) ?? ComparisonOptions()

  /// One sane run of `row` on `server`, as the comparison records it at --smoke's sizes.
  static func run(_ row: ReportRow, _ server: String, round: Int = 1) -> String {
    let tag = "row=\(row.rawValue) server=\(server) round=\(round)"
    switch row.metric {
    case .throughput:
      return tag
        + " mode=load target=\(server) case=ping connections=50 pipeline=1 duration_s=0.012 requests=300 rps=25000"
        + " p50_us=40 p99_us=180 errors=0 dropped=0 cpu_us_per_request=0.000 cpu_ticks=0"
    case .memory:
      return tag
        + " mode=idle target=\(server) connections=50 rss_before_kib=9000 rss_after_kib=9300 bytes_per_connection=6144"
        + " errors=0"
    case .fanout:
      return tag + " mode=fanout target=\(server) watchers=20 changes=10 p50_us=300 p99_us=900 max_us=901 errors=0"
    }
  }

  /// Every row on both servers, with `change` made to the line of `row` on `server`.
  static func report(
    _ row: ReportRow? = nil, _ server: String = "redis", _ change: (String) -> String = { $0 }
  ) -> BenchReport {
    var lines = ["meta date=2026-12-07T08:00:00Z cores=2 quick=smoke rounds=1"]
    for each in ReportRow.allCases {
      for target in each.servers {
        let line = run(each, target)
        lines.append(each == row && target == server ? change(line) : line)
      }
    }
    return BenchReport(text: lines.joined(separator: "\n"))
  }

  static func replacing(_ old: String, _ new: String) -> (String) -> String {
    { $0.replacingOccurrences(of: old, with: new) }
  }

  @Test("every row with sane figures for both servers passes, CPU and idle-memory growth of 0 included")
  func sane() {
    #expect(FigureCheck(Self.options).problems(in: Self.report()) == [])
    // RSS grows in pages: fifty connections may not need a new one.
    let noGrowth = Self.report(
      .idle, "stockroom", Self.replacing("bytes_per_connection=6144", "bytes_per_connection=0"))
    #expect(FigureCheck(Self.options).problems(in: noGrowth) == [])
  }

  @Test(
    "a figure that is 0, NaN, negative, infinite, not a number or missing is refused, naming row, server and round",
    arguments: [
      (ReportRow.ping1, "redis", "rps=25000", "rps=0", "ping1 on redis-server, round 1: rps is 0"),
      (.ping16, "stockroom", "p50_us=40", "p50_us=nan", "ping16 on stockroomd, round 1: p50_us is not a number: 'nan'"),
      (
        .stock1, "redis", "cpu_us_per_request=0.000", "cpu_us_per_request=-0.5",
        "stock1 on redis-server, round 1: cpu_us_per_request is -0.5"
      ),
      (.orderAlways, "stockroom", "p99_us=180 ", "", "order_always on stockroomd, round 1: p99_us is missing"),
      (
        .orderBatch, "redis", "rps=25000", "rps=inf", "order_batch on redis-server, round 1: rps is not a number: 'inf'"
      ),
      (.idle, "stockroom", "rss_after_kib=9300", "rss_after_kib=0", "idle on stockroomd, round 1: rss_after_kib is 0"),
      (
        .idle, "redis", "bytes_per_connection=6144", "bytes_per_connection=-81",
        "idle on redis-server, round 1: bytes_per_connection is -81"
      ),
      (.ceiling, "ceiling", "rps=25000", "rps=0", "ceiling on stockroom-ceiling, round 1: rps is 0"),
      (.fanout, "redis", "max_us=901", "max_us=-", "fanout on redis-server, round 1: max_us is not a number: '-'"),
      (.fanout, "stockroom", "p50_us=300", "p50_us=0", "fanout on stockroomd, round 1: p50_us is 0"),
      (
        .ping1TLS, "stockroom", "duration_s=0.012", "duration_s=0.000",
        "ping1_tls on stockroomd, round 1: duration_s is 0.000"
      ),
      (
        .orderTLS, "redis", "cpu_us_per_request=0.000 ", "",
        "order_tls on redis-server, round 1: cpu_us_per_request is missing"
      ),
    ])
  func badFigure(row: ReportRow, server: String, old: String, new: String, problem: String) {
    let report = Self.report(row, server, Self.replacing(old, new))
    #expect(FigureCheck(Self.options).problems(in: report) == [problem])
  }

  @Test("a failed run, failed requests, a dropped connection or a wrong count is refused")
  func badRun() {
    let check = FigureCheck(Self.options)
    let failed = Self.report(.ping1, "stockroom") { _ in "row=ping1 server=stockroom round=1 errors=failed" }
    #expect(check.problems(in: failed) == ["ping1 on stockroomd, round 1: the run failed (no result line)"])
    let errors = Self.report(.fanout, "redis", Self.replacing("errors=0", "errors=2"))
    #expect(check.problems(in: errors) == ["fanout on redis-server, round 1: errors=2"])
    let dropped = Self.report(.ping16, "redis", Self.replacing("dropped=0", "dropped=1"))
    #expect(check.problems(in: dropped) == ["ping16 on redis-server, round 1: dropped=1"])
    let short = Self.report(.stock1, "stockroom", Self.replacing("requests=300", "requests=299"))
    #expect(check.problems(in: short) == ["stock1 on stockroomd, round 1: requests is 299, not the 300 asked for"])
    // A pipelined run claims whole batches: 19 batches of 16 for 300.
    let batches = Self.report(.ping16, "stockroom", Self.replacing("requests=300", "requests=304"))
    #expect(check.problems(in: batches) == [])
    let watchers = Self.report(.fanout, "stockroom", Self.replacing("watchers=20", "watchers=19"))
    #expect(check.problems(in: watchers) == ["fanout on stockroomd, round 1: watchers is 19, not the 20 asked for"])
  }

  @Test("a row without a run on one server, or with too few rounds, is refused")
  func missingRun() {
    let check = FigureCheck(Self.options)
    let missing = Self.report(.idle, "redis") { _ in "" }
    #expect(check.problems(in: missing) == ["idle on redis-server: 0 run(s) where 1 should be"])
    var threeRounds = Self.options
    threeRounds.rounds = 3
    let problems = FigureCheck(threeRounds).problems(in: Self.report())
    #expect(problems.count == ReportRow.allCases.map(\.servers.count).reduce(0, +))
    #expect(problems.first == "ping1 on stockroomd: 1 run(s) where 3 should be")
    // Rows not asked for are not looked for.
    var oneRow = Self.options
    oneRow.rows = [.ping1]
    #expect(
      FigureCheck(oneRow).problems(in: BenchReport(text: Self.run(.ping1, "stockroom"))) == [
        "ping1 on redis-server: 0 run(s) where 1 should be"
      ])
  }
}

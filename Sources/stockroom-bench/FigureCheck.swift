/// What every row of a comparison must show for each server before a table of it means
/// anything: one run per round, each valid (no failed request, no dropped connection), the
/// counts it was asked for, and its figures present, finite and above 0.
///
/// A run that exits 0 can still measure nothing (no request counted, a latency of 0, a run that
/// failed and was recorded as `errors=failed`); `--smoke` fails on any of these, naming them.
struct FigureCheck: Sendable {
  var rows: [ReportRow]
  var rounds: Int
  var requests: [ReportRow: Int]
  var idleConnections: Int
  var watchers: Int
  var changes: Int

  init(_ options: ComparisonOptions) {
    rows = options.rows
    rounds = options.rounds
    requests = options.requests
    idleConnections = options.idleConnections
    watchers = options.watchers
    changes = options.changes
  }

  /// The figures a row's runs must carry, and whether 0 is an honest value of each.
  ///
  /// CPU per request may be 0: /proc counts CPU in clock ticks (10 ms), and a smoke run's few
  /// hundred requests often cost redis-server less than one. Memory per idle connection may be 0:
  /// RSS grows in 4 KiB pages, and fifty connections can fit in pages the server already had.
  static func figures(_ metric: ReportMetric) -> [(key: String, zeroAllowed: Bool)] {
    switch metric {
    case .throughput:
      [("rps", false), ("p50_us", false), ("p99_us", false), ("duration_s", false), ("cpu_us_per_request", true)]
    case .memory: [("rss_before_kib", false), ("rss_after_kib", false), ("bytes_per_connection", true)]
    case .fanout: [("p50_us", false), ("p99_us", false), ("max_us", false)]
    }
  }

  /// The counts a row's runs must report, as the comparison asked for them: exactly, except
  /// that a counted load run claims whole pipelined batches and so may measure a few more.
  func counts(_ row: ReportRow) -> [(key: String, value: Int, orMore: Bool)] {
    switch row.metric {
    case .throughput: [("requests", requests[row] ?? 0, true)]
    case .memory: [("connections", idleConnections, false)]
    case .fanout: [("watchers", watchers, false), ("changes", changes, false)]
    }
  }

  /// Every fault found, one line each, naming the row, the server and the round; empty when
  /// every row is sane.
  func problems(in report: BenchReport) -> [String] {
    var problems: [String] = []
    for row in rows {
      for server in row.servers {
        let runs = report.runs(row, server)
        let name = "\(row.rawValue) on \(Self.program(server))"
        if runs.count != rounds {
          problems.append("\(name): \(runs.count) run(s) where \(rounds) should be")
        }
        for run in runs {
          problems += self.problems(run, row).map { "\(name), round \(run["round"] ?? "?"): \($0)" }
        }
      }
    }
    return problems
  }

  /// What is wrong with one run of `row`.
  func problems(_ run: ResultLine, _ row: ReportRow) -> [String] {
    if run["errors"] == "failed" { return ["the run failed (no result line)"] }
    var problems: [String] = []
    for key in ["errors", "dropped"] where (run[key] ?? "0") != "0" {
      problems.append("\(key)=\(run[key] ?? "")")
    }
    for (key, expected, orMore) in counts(row) {
      let count = run[key].flatMap { Int($0) }
      if count == expected || (orMore && count.map { $0 > expected } == true) { continue }
      problems.append("\(key) is \(run[key] ?? "missing"), not the \(expected) asked for")
    }
    for (key, zeroAllowed) in Self.figures(row.metric) {
      guard let text = run[key] else {
        problems.append("\(key) is missing")
        continue
      }
      guard let value = Double(text), value.isFinite else {
        problems.append("\(key) is not a number: '\(text)'")
        continue
      }
      if value < 0 || (value == 0 && !zeroAllowed) { problems.append("\(key) is \(text)") }
    }
    return problems
  }

  /// The server's program, as a person running the bench knows it.
  static func program(_ server: String) -> String {
    switch server {
    case "redis": "redis-server"
    case "ceiling": "stockroom-ceiling"
    default: "stockroomd"
    }
  }
}

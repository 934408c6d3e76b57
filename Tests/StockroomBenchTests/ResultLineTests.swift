import Testing

@testable import stockroom_bench

/// Reading the lines every generator run prints and the comparison tags, which the report and
/// the figure check are built on.
@Suite("reading result lines and reports", .timeLimit(.minutes(30)))
struct ResultLineTests {
  @Test("words split at their first '='; words without one are passed over")
  func fields() {
    let line = ResultLine("row=ping1 server=redis round=2 note args=--loops=2 p50_us=41 empty= =x")
    #expect(line["row"] == "ping1")
    #expect(line["round"] == "2")
    #expect(line["args"] == "--loops=2")
    #expect(line["empty"] == "")
    #expect(line[""] == "x")
    #expect(line["note"] == nil)
    #expect(line.number("p50_us") == 41)
    #expect(line.number("row") == nil)
    #expect(line.number("missing") == nil)
    #expect(ResultLine("").fields.isEmpty)
  }

  @Test("a run is valid only without failed requests and dropped connections; a failed run is not")
  func validity() {
    #expect(ResultLine("rps=10 errors=0 dropped=0").isValid)
    // An idle or fan-out line has no dropped=; that is not a fault.
    #expect(ResultLine("bytes_per_connection=5 errors=0").isValid)
    #expect(!ResultLine("rps=10 errors=1 dropped=0").isValid)
    #expect(!ResultLine("rps=10 errors=0 dropped=3").isValid)
    #expect(!ResultLine("row=ping1 server=redis round=1 errors=failed").isValid)
  }

  @Test("a report takes meta lines together and runs that name a row and a server; the rest is passed over")
  func report() {
    let report = BenchReport(
      text: """
        meta date=2026-12-07 cores=2
        meta redis=7.0.15 cores=4
        row=ping1 server=stockroom round=1 rps=5
        row=ping1 round=1 rps=6
        server=redis round=1 rps=7
        io=epoll row=stock1 server=stockroom round=1 rps=8

        cores: 2, shared by the generator
        """)
    #expect(report.meta == ["date": "2026-12-07", "cores": "4", "redis": "7.0.15"])
    #expect(report.runs.count == 2)
    #expect(report.runs(.ping1, "stockroom").map { $0.number("rps") } == [5])
    #expect(report.runs(.ping1, "redis").isEmpty)
    #expect(report.presentRows == [.ping1, .stock1])
  }

  @Test("every row the comparison runs is read back by its name, with its metric's figures")
  func rows() {
    for row in ReportRow.allCases {
      let report = BenchReport(text: "row=\(row.rawValue) server=redis round=1")
      #expect(report.presentRows == [row])
      #expect(!BenchReport.keys(row.metric).isEmpty)
    }
  }
}

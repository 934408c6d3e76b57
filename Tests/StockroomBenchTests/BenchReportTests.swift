import Foundation
import Testing

@testable import stockroom_bench

@Suite("the comparison report and its JSON", .timeLimit(.minutes(30)))
struct BenchReportTests {
  static let results = """
    meta date=2026-12-01T07:00:00Z cores=2
    row=ping1 server=stockroom round=1 rps=100 cpu_us_per_request=10 errors=0 dropped=0
    row=ping1 server=redis round=1 rps=200 cpu_us_per_request=5 errors=0 dropped=0
    row=ping1 server=stockroom round=2 rps=300 cpu_us_per_request=8 errors=0 dropped=0
    row=ping1 server=redis round=2 rps=100 cpu_us_per_request=4 errors=0 dropped=0
    row=ping1 server=stockroom round=3 rps=200 cpu_us_per_request=20 errors=0 dropped=0
    row=ping1 server=redis round=3 rps=150 cpu_us_per_request=6 errors=0 dropped=0
    row=ping1 server=stockroom round=4 rps=99999 errors=3 dropped=0
    row=idle server=stockroom round=1 connections=1000 bytes_per_connection=5000 errors=0
    row=idle server=redis round=1 connections=1000 bytes_per_connection=10000 errors=0
    row=fanout server=stockroom round=1 watchers=1000 changes=200 p50_us=1000 p99_us=4000 errors=0
    row=fanout server=redis round=1 watchers=1000 changes=200 p50_us=2000 p99_us=2000 errors=0
    row=ceiling server=ceiling round=1 rps=400 cpu_us_per_request=4 errors=0 dropped=0
    some line the script printed that is not a result
    """

  @Test("the median is the middle value, or the mean of the two middle ones")
  func median() {
    #expect(BenchReport.median([3, 1, 2]) == 2)
    #expect(BenchReport.median([4, 1, 3, 2]) == 2.5)
    #expect(BenchReport.median([]) == nil)
  }

  @Test("ratios point so that above 1 means Stockroom is better")
  func ratios() {
    let report = BenchReport(text: Self.results)
    // rps medians 200 and 150; the invalid run (errors=3) is left out.
    #expect(report.ratios(.ping1)[0].value == 200.0 / 150.0)
    // CPU medians 10 and 5: Stockroom spends twice Redis's, so 0.5.
    #expect(report.ratios(.ping1)[1].value == 0.5)
    #expect(report.ratios(.idle)[0].value == 2)
    #expect(report.ratios(.fanout).map(\.value) == [2, 0.5])
    #expect(report.presentRows == [.ping1, .ceiling, .idle, .fanout])
    // CPU per PING over the ceiling's 4: Stockroom's median 10, Redis's 5.
    #expect(report.ratios(.ceiling).map(\.value) == [2.5, 1.25])
    #expect(report.runs(.ping1, "stockroom").count == 4)
  }

  @Test("the table names every present row, its counts, and any invalid run")
  func table() {
    let table = BenchReport(text: Self.results).table()
    #expect(table.contains("| PING, 1 in flight | 200 | 150 | 1.33 | 10.00 | 5.00 | 0.50 | 4 + 3 |"))
    #expect(table.contains("stockroom: 1 invalid run(s), left out"))
    #expect(table.contains("(1000 connections)"))
    #expect(table.contains("| 1,000 / 4,000 | 2,000 / 2,000 | 2.00 / 0.50 |"))
    #expect(!table.contains("PING, 16 pipelined"))
    #expect(
      table.contains(
        "| ceiling: 400 |  |  | ceiling: 4.00 |  | Stockroom 2.50×, Redis 1.25× the ceiling's CPU | 1 |"))
  }

  @Test("the JSON holds meta, medians, ratios and every run, numbers as numbers")
  func json() throws {
    let data = try BenchReport(text: Self.results).json()
    let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let meta = try #require(document["meta"] as? [String: String])
    #expect(meta["cores"] == "2")
    let rows = try #require(document["rows"] as? [[String: Any]])
    #expect(rows.map { $0["row"] as? String } == ["ping1", "ceiling", "idle", "fanout"])
    let ceiling = try #require(rows[1]["ratio"] as? [String: Any])
    #expect(ceiling["stockroom_cpu_over_ceiling"] as? Double == 2.5)
    let ping = rows[0]
    let ratio = try #require(ping["ratio"] as? [String: Any])
    #expect(ratio["cpu"] as? Double == 0.5)
    let stockroom = try #require(ping["stockroom"] as? [String: Any])
    let medians = try #require(stockroom["median"] as? [String: Any])
    #expect(medians["rps"] as? Double == 200)
    let runs = try #require(stockroom["runs"] as? [[String: Any]])
    #expect(runs.count == 4)
    #expect(runs[0]["rps"] as? Double == 100)
    #expect(runs[0]["server"] as? String == "stockroom")
  }

  @Test("whole numbers are grouped by thousands")
  func text() {
    #expect(BenchReport.text(1_234_567, digits: 0) == "1,234,567")
    #expect(BenchReport.text(999, digits: 0) == "999")
    #expect(BenchReport.text(0.456, digits: 2) == "0.46")
    #expect(BenchReport.text(nil, digits: 0) == "-")
  }
}

import Testing

@testable import stockroom_bench

@Suite("the I/O backend and store tables after the comparison", .timeLimit(.minutes(30)))
struct SectionTableTests {
  static func runs(_ lines: String...) -> [ResultLine] { lines.map { ResultLine($0) } }

  @Test("the median is the middle value, the lower middle for an even count; a failed run counts as 0")
  func median() {
    #expect(SectionTable.median(Self.runs("rps=3", "rps=1", "rps=2"), "rps") == 2)
    #expect(SectionTable.median(Self.runs("rps=40", "rps=10", "rps=30", "rps=20"), "rps") == 20)
    #expect(SectionTable.median(Self.runs("rps=5", "failed=1", "failed=1"), "rps") == 0)
    #expect(SectionTable.median([], "rps") == 0)
  }

  @Test("backends: one line per row in the order rows first ran, dispatch ÷ epoll rps, epoll ÷ dispatch CPU")
  func backends() {
    let table = SectionTable.backends(
      Self.runs(
        "row=stock1 io=epoll rps=1000 cpu_us_per_request=4.00",
        "row=stock1 io=dispatch rps=800 cpu_us_per_request=5.00",
        "row=ping1 io=epoll rps=2000.7 cpu_us_per_request=2.5",
        "row=ping1 io=dispatch rps=3000 cpu_us_per_request=2",
      ))
    let lines = table.split(separator: "\n").map(String.init)
    #expect(lines.count == 4)
    #expect(
      lines[0] == "| row | epoll rps | dispatch rps | ratio | epoll CPU us/req | dispatch CPU us/req | CPU ratio |")
    #expect(lines[1] == "| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    #expect(lines[2] == "| stock1 | 1000 | 800 | 0.80 | 4.00 | 5.00 | 0.80 |")
    #expect(lines[3] == "| ping1 | 2000 | 3000 | 1.50 | 2.50 | 2.00 | 1.25 |")
  }

  @Test("a row whose epoll runs all failed shows no ratio instead of dividing by zero")
  func backendsWithoutFigures() {
    let table = SectionTable.backends(
      Self.runs("row=ping16 io=epoll failed=1", "row=ping16 io=dispatch rps=10 cpu_us_per_request=0"))
    #expect(table.hasSuffix("| ping16 | 0 | 10 | - | 0.00 | 0.00 | - |"))
  }

  @Test("stores: fixed order, absent ones left out, no PostgreSQL CPU for SQLite")
  func stores() {
    let table = SectionTable.stores(
      Self.runs(
        "store=postgresql-2 rps=900 p50_us=1500 p99_us=4000 orders_per_commit=12.34 cpu_us_per_request=30"
          + " postgres_cpu_us_per_order=55.556",
        "store=sqlite rps=1200.9 p50_us=800 p99_us=2000 orders_per_commit=20 cpu_us_per_request=25",
      ))
    let lines = table.split(separator: "\n").map(String.init)
    #expect(
      lines == [
        "| store | rps | p50 us | p99 us | orders/commit | node CPU us/order | PostgreSQL CPU us/order |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
        "| sqlite | 1200 | 800 | 2000 | 20.0 | 25.00 | - |",
        "| postgresql-2 | 900 | 1500 | 4000 | 12.3 | 30.00 | 55.56 |",
        "2 nodes ÷ 1 node: - (target ≥ 1.0); 3 nodes ÷ 1 node: - (target ≥ 1.0)",
        "PostgreSQL 1 node ÷ SQLite: - (target ≥ 0.5); PostgreSQL CPU per order, 1 node: - µs (target ≤ 30)",
      ])
  }

  @Test("stores: issue 23's ratios from the medians of each store")
  func storeRatios() {
    let ratios = SectionTable.storeRatios(
      Self.runs(
        "store=sqlite rps=2000", "store=postgresql-1 rps=800 postgres_cpu_us_per_order=31.25",
        "store=postgresql-1 rps=1000 postgres_cpu_us_per_order=29", "store=postgresql-2 rps=900",
        "store=postgresql-3 rps=1200"))
    #expect(
      ratios == "2 nodes ÷ 1 node: 1.12 (target ≥ 1.0); 3 nodes ÷ 1 node: 1.50 (target ≥ 1.0)\n"
        + "PostgreSQL 1 node ÷ SQLite: 0.40 (target ≥ 0.5); PostgreSQL CPU per order, 1 node: 29.0 µs (target ≤ 30)")
  }

  @Test("reads: both modes, and linearizable's share of cached's rate")
  func reads() {
    let table = SectionTable.reads(
      Self.runs(
        "reads=cached rps=1000 p50_us=400 p99_us=900 cpu_us_per_request=8 postgres_cpu_us_per_request=0",
        "reads=linearizable rps=600 p50_us=700 p99_us=2000 cpu_us_per_request=12.5 postgres_cpu_us_per_request=6.25"))
    let lines = table.split(separator: "\n").map(String.init)
    #expect(
      lines == [
        "| --reads | rps | p50 us | p99 us | node CPU us/read | PostgreSQL CPU us/read |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
        "| linearizable | 600 | 700 | 2000 | 12.50 | 6.25 |",
        "| cached | 1000 | 400 | 900 | 8.00 | 0.00 |",
        "linearizable ÷ cached: 0.60 of the reads a second (issue 23's target: ≥ 0.75)",
      ])
  }

  @Test("the start-up lines are printf's '%-10s %14s'")
  func startupLine() {
    #expect(Comparison.startupLine("size_mb", "listening_ms") == "size_mb      listening_ms")
    #expect(Comparison.startupLine("52", "340") == "52                    340")
    #expect(Comparison.startupLine("12345678901", "1") == "12345678901              1")
  }
}

import Testing

@testable import stockroom_bench

@Suite("stockroom-bench compare's command line and BENCH_* variables", .timeLimit(.minutes(30)))
struct ComparisonOptionsTests {
  static func parse(_ arguments: [String], _ environment: [String: String] = [:]) throws -> ComparisonOptions {
    try #require(try ComparisonOptions.parse(arguments, environment: environment))
  }

  @Test("with nothing given: the full run, three rounds, every row and both sections")
  func defaults() throws {
    let options = try Self.parse([])
    #expect(options.mode == .full)
    #expect(options.rounds == 3)
    #expect(options.connections == 50)
    #expect(options.rows == ReportRow.allCases)
    #expect(options.backends && options.postgres)
    #expect(options.backendRows == [.ping1, .ping16, .stock1, .orderAlways, .ping1TLS])
    #expect(options.requests[.ping1] == 300_000)
    #expect(options.idleConnections == 10_000 && options.watchers == 1000 && options.changes == 200)
    #expect(options.out == nil && options.startupOrders == 0 && options.stockroomArguments.isEmpty)
  }

  @Test("--quick: one round unless BENCH_ROUNDS says more, a third of the requests, fewer clients")
  func quick() throws {
    let quick = try Self.parse(["--quick"])
    #expect(quick.mode == .quick)
    #expect(quick.rounds == 1)
    #expect(quick.requests[.ping1] == 100_000)
    #expect(quick.idleConnections == 2000 && quick.watchers == 200 && quick.changes == 50)
    #expect(try Self.parse(["--quick"], ["BENCH_ROUNDS": "2"]).rounds == 2)
  }

  @Test("--smoke: always one round and a few hundred requests a row, whatever BENCH_ROUNDS says")
  func smoke() throws {
    let smoke = try Self.parse(["--smoke"], ["BENCH_ROUNDS": "5"])
    #expect(smoke.mode == .smoke)
    #expect(smoke.rounds == 1)
    #expect(smoke.requests.values.allSatisfy { $0 == 300 })
    #expect(smoke.warmup == 0)
    #expect(smoke.maxClients == 150)
  }

  @Test("--out FILE and --out=FILE both name the JSON file, made absolute")
  func out() throws {
    #expect(try Self.parse(["--out", "/tmp/report.json"]).out == "/tmp/report.json")
    #expect(try Self.parse(["--smoke", "--out=/tmp/a/../b.json"]).out == "/tmp/b.json")
    let relative = try #require(try Self.parse(["--out", "report.json"]).out)
    #expect(relative.hasPrefix("/") && relative.hasSuffix("/report.json"))
  }

  @Test("-h and --help ask for the usage, which names every flag and variable")
  func help() throws {
    #expect(try ComparisonOptions.parse(["--help"], environment: [:]) == nil)
    #expect(try ComparisonOptions.parse(["--quick", "-h"], environment: [:]) == nil)
    for word in [
      "--quick", "--smoke", "--out FILE", "BENCH_ROUNDS", "BENCH_CONNECTIONS", "BENCH_STOCKROOM_ARGS",
      "BENCH_SCRATCH", "BENCH_STARTUP_ORDERS", "BENCH_ROWS", "BENCH_IO ", "BENCH_IO_ROWS", "BENCH_POSTGRES",
    ] {
      #expect(ComparisonOptions.usage.contains(word), "usage does not mention \(word)")
    }
    for row in ReportRow.allCases { #expect(ComparisonOptions.usage.contains("  \(row.rawValue) ")) }
  }

  @Test("every BENCH_* variable is read; an empty one counts as unset")
  func environment() throws {
    let options = try Self.parse(
      [],
      [
        "BENCH_ROUNDS": "4", "BENCH_CONNECTIONS": "8", "BENCH_STOCKROOM_ARGS": "--loops 2",
        "BENCH_STARTUP_ORDERS": "80000", "BENCH_ROWS": "ping1 order_tls", "BENCH_IO": "0",
        "BENCH_IO_ROWS": "stock1", "BENCH_POSTGRES": "0",
      ])
    #expect(options.rounds == 4)
    #expect(options.connections == 8)
    #expect(options.stockroomArguments == ["--loops", "2"])
    #expect(options.startupOrders == 80_000)
    #expect(options.rows == [.ping1, .orderTLS])
    #expect(!options.backends && !options.postgres)
    #expect(options.backendRows == [.stock1])
    let empty = try Self.parse([], ["BENCH_ROUNDS": "", "BENCH_ROWS": "", "BENCH_CONNECTIONS": ""])
    #expect(empty.rounds == 3 && empty.rows == ReportRow.allCases && empty.connections == 50)
    #expect(try Self.parse([], ["BENCH_ROUNDS": "0"]).rounds == 1)
  }

  @Test(
    "bad input is refused with a message that names it",
    arguments: [
      (["--fast"], [:], "unknown option '--fast'; try --help"),
      (["--out"], [:], "--out needs a file"),
      ([], ["BENCH_ROUNDS": "three"], "BENCH_ROUNDS takes a whole number, not 'three'"),
      ([], ["BENCH_CONNECTIONS": "-5"], "BENCH_CONNECTIONS takes a whole number, not '-5'"),
      ([], ["BENCH_STARTUP_ORDERS": "1e5"], "BENCH_STARTUP_ORDERS takes a whole number, not '1e5'"),
      ([], ["BENCH_ROWS": "ping1 ping2"], "BENCH_ROWS: no row 'ping2'"),
      ([], ["BENCH_IO_ROWS": "idle_tls"], "BENCH_IO_ROWS: no row 'idle_tls'"),
    ] as [([String], [String: String], String)])
  func refusals(arguments: [String], environment: [String: String], message: String) {
    #expect {
      _ = try ComparisonOptions.parse(arguments, environment: environment)
    } throws: { error in
      (error as? BenchError)?.description == message
    }
  }
}

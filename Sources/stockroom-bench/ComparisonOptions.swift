import Foundation

/// What the comparison is told: `--quick`, `--smoke` and `--out` on its command line, the rest
/// from `BENCH_*` variables, as `Scripts/bench` always took them.
struct ComparisonOptions: Sendable, Equatable {
  var mode = ComparisonMode.full
  var out: String? = nil
  var connections = 50
  var rounds = 3
  var warmup = 1.0
  /// Requests per throughput run: about three seconds each at this machine's rates.
  var requests: [ReportRow: Int] = [
    .ping1: 300_000, .ceiling: 300_000, .ping16: 3_000_000, .stock1: 300_000, .orderAlways: 150_000,
    .orderBatch: 200_000,
    .ping1TLS: 300_000, .orderTLS: 150_000,
  ]
  var idleConnections = 10_000
  var watchers = 1000
  var changes = 200
  var stockroomArguments: [String] = []
  var rows = ReportRow.allCases
  var backends = true
  var backendRows: [ReportRow] = [.ping1, .ping16, .stock1, .orderAlways, .ping1TLS]
  var postgres = true
  var startupOrders = 0

  static let usage = """
    Issue 11's comparison: Stockroom against redis-server doing the same work, driven by the same
    load generator (stockroom-bench) on the same machine in one run. Rows:

      ping1         PING, 1 in flight per connection
      ceiling       PING, 1 in flight, against stockroom-ceiling alone: a C epoll server that
                    answers each line with stockroomd's OK PONG and does nothing else, the least
                    a server can spend per PING here; the table prints each server's CPU per
                    PING (its ping1 row) as a multiple of the ceiling's
      ping16        PING, 16 pipelined
      stock1        STOCK banana / GET banana, 1 in flight
      order_always  ORDER banana_juice with --fsync always / check-and-decrement EVAL, appendfsync always
      order_batch   the same with --fsync batch / appendfsync everysec
      idle          RSS growth per idle connection (10,000 connections)
      fanout        1,000 watchers (WATCH banana / SUBSCRIBE banana), 200 changes (ORDER banana /
                    PUBLISH): time from a change's send to the last watcher's receipt, p50 / p99
      ping1_tls     PING, 1 in flight, over TLS: stockroomd --tls-port / redis-server --tls-port,
                    the same certificate (made here with openssl), the generator checking it
      order_tls     order_always over TLS

    Throughput rows measure a fixed number of requests from 50 connections after a warmup, and read
    the server's user + system time from /proc/PID/stat around them: CPU per request is steadier
    than requests per second on a shared machine. Every row runs in rounds, the servers taking turns
    to go first, and the table shows medians. Ratios are turned so that above 1 means Stockroom is
    better: rps Stockroom ÷ Redis; CPU, memory and latency Redis ÷ Stockroom.

      Scripts/bench [--quick | --smoke] [--out FILE]
        --quick      one round, fewer requests, 2,000 idle connections, 200 watchers and 50 changes
                     (under two minutes once built)
        --smoke      every row and section once with a few hundred requests, so that Scripts/test
                     sees the bench run end to end; its figures mean nothing, but a row that fails
                     or lacks a sane figure for either server (0, negative, not a number, missing,
                     a count other than asked) makes the script fail, naming the row
        --out FILE   also write every figure, each run's and the medians and ratios, as JSON

      BENCH_ROUNDS          rounds (default 3; 1 with --quick; always 1 with --smoke)
      BENCH_CONNECTIONS     connections for the throughput rows (default 50)
      BENCH_STOCKROOM_ARGS  extra stockroomd options for every run, e.g. "--loops 2"
      BENCH_SCRATCH         build directory (default: SwiftPM's .build)
      BENCH_STARTUP_ORDERS  when set above 0, also time start-up on a large database of that many
                            orders (made by `stockroom-bench make-db`; 80000 takes a minute or two)
      BENCH_ROWS            the rows to run, e.g. "ping1 order_always ping1_tls order_tls" (default all)
      BENCH_IO              0 skips the I/O backend section (default: run it)
      BENCH_IO_ROWS         its rows (default "ping1 ping16 stock1 order_always ping1_tls")
      BENCH_POSTGRES        0 skips the PostgreSQL store section (default: run it when Debian's
                            postgresql server is installed)

    After the table: the Stockroom rows again with --io epoll against --io dispatch; then durable
    orders through one node on SQLite and on PostgreSQL (a throw-away cluster on loopback), with the
    orders per group commit (INFO store's commits), the node's CPU per order and PostgreSQL's (every
    process of the cluster, from /proc/PID/stat).
    """

  /// The options asked for, or nil when the command line asked for help.
  static func parse(_ arguments: [String], environment: [String: String]) throws(BenchError) -> ComparisonOptions? {
    var options = ComparisonOptions()
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      switch argument {
      case "--quick": options.mode = .quick
      case "--smoke": options.mode = .smoke
      case "--out":
        index += 1
        guard index < arguments.count else { throw BenchError("--out needs a file") }
        options.out = arguments[index]
      case "-h", "--help": return nil
      default:
        guard argument.hasPrefix("--out=") else { throw BenchError("unknown option '\(argument)'; try --help") }
        options.out = String(argument.dropFirst("--out=".count))
      }
      index += 1
    }
    // The JSON lands where the caller meant, whatever folder the run works in.
    options.out = options.out.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
    try options.read(environment)
    options.scale()
    return options
  }

  /// The `BENCH_*` variables; an empty one counts as unset, as `${NAME:-default}` did.
  private mutating func read(_ environment: [String: String]) throws(BenchError) {
    func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
    func number(_ name: String) throws(BenchError) -> Int? {
      guard let text = value(name) else { return nil }
      guard let number = Int(text), number >= 0 else { throw BenchError("\(name) takes a whole number, not '\(text)'") }
      return number
    }
    func rows(_ name: String) throws(BenchError) -> [ReportRow]? {
      guard let text = value(name) else { return nil }
      var rows: [ReportRow] = []
      for word in text.split(separator: " ") {
        guard let row = ReportRow(rawValue: String(word)) else { throw BenchError("\(name): no row '\(word)'") }
        rows.append(row)
      }
      return rows
    }
    connections = try number("BENCH_CONNECTIONS") ?? connections
    if let rounds = try number("BENCH_ROUNDS") { self.rounds = max(1, rounds) } else if mode != .full { rounds = 1 }
    stockroomArguments = value("BENCH_STOCKROOM_ARGS").map { $0.split(separator: " ").map(String.init) } ?? []
    startupOrders = try number("BENCH_STARTUP_ORDERS") ?? 0
    self.rows = try rows("BENCH_ROWS") ?? self.rows
    backendRows = try rows("BENCH_IO_ROWS") ?? backendRows
    backends = environment["BENCH_IO"] != "0"
    postgres = environment["BENCH_POSTGRES"] != "0"
  }

  /// What `--quick` and `--smoke` make smaller.
  private mutating func scale() {
    switch mode {
    case .full: return
    case .quick:
      requests = requests.mapValues { $0 / 3 }
      warmup = 0.5
      idleConnections = 2000
      watchers = 200
      changes = 50
    case .smoke:
      requests = requests.mapValues { _ in 300 }
      warmup = 0
      rounds = 1
      idleConnections = 50
      watchers = 20
      changes = 10
    }
  }

  /// Room for every idle connection or watcher, and a few more.
  var maxClients: Int { max(idleConnections, watchers) + 100 }
}

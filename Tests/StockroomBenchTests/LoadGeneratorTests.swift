import Foundation
import Testing

@testable import stockroom_bench

/// The load generator's three runs, as `stockroom-bench load|fanout|idle` makes them, against a
/// real stockroomd and redis-server on loopback that the bench's launcher started; what the
/// generator counts is held against what the server itself counted.
@Suite("the load generator against real servers", .timeLimit(.minutes(30)))
struct LoadGeneratorTests {
  /// One server of `row` for `body`, stopped and its folder removed after.
  static func with<T>(
    _ target: BenchTarget, _ row: ReportRow = .ping1, _ body: (RunningServer) throws -> T
  ) throws -> T {
    let servers = try BenchServers()
    defer { servers.remove() }
    let server = try servers.launcher.start(target, row)
    defer { servers.launcher.stop(server) }
    return try body(server)
  }

  /// What the generator is told for a run against `server`: loopback, its port and pid.
  static func options(_ mode: BenchMode, _ server: RunningServer) -> BenchOptions {
    var options = BenchOptions()
    options.mode = mode
    options.target = server.target
    options.port = server.port
    options.serverPID = server.process.pid
    options.warmup = 0
    return options
  }

  /// The server's own count of the requests a case sends.
  static func served(_ server: RunningServer, _ benchCase: BenchCase) throws -> Int {
    switch server.target {
    case .stockroom, .ceiling: try BenchServers.counter(server, "commands")
    case .redis: try BenchServers.counter(server, benchCase == .order ? "eval" : benchCase == .ping ? "ping" : "get")
    }
  }

  @Test("the C ceiling answers every PING, one in flight or pipelined, and its CPU is read")
  func ceiling() throws {
    try Self.with(.ceiling, .ceiling) { server in
      for pipeline in [1, 16] {
        var options = Self.options(.load, server)
        (options.benchCase, options.pipeline, options.connections, options.requests) = (.ping, pipeline, 4, 320)
        let outcome = try LoadRun(options: options).execute()
        #expect(outcome.tally.requests == 320)
        #expect(outcome.tally.errors == 0 && outcome.tally.failures.isEmpty)
        #expect(outcome.cpuTicks != nil, "the ceiling's CPU was read")
      }
    }
  }

  @Test(
    "a counted load run: every request sent is answered and counted once, none fails, every figure is above 0",
    arguments: [BenchTarget.stockroom, .redis], [(BenchCase.ping, 1), (.order, 1), (.ping, 16), (.stock, 4)])
  func countedLoad(target: BenchTarget, shape: (BenchCase, Int)) throws {
    let (benchCase, pipeline) = shape
    try Self.with(target) { server in
      var options = Self.options(.load, server)
      (options.benchCase, options.pipeline, options.connections, options.requests) = (benchCase, pipeline, 4, 200)
      let before = try Self.served(server, benchCase)
      let outcome = try LoadRun(options: options).execute()
      // An INFO counts itself on stockroomd; learn by how much from two in a row.
      let after = try Self.served(server, benchCase)
      let perRead = try Self.served(server, benchCase) - after
      let tally = outcome.tally
      // Whole batches are claimed: 200 requests in batches of 16 are 13 batches.
      let batches = (200 + pipeline - 1) / pipeline
      #expect(tally.requests == batches * pipeline)
      #expect(after - before - perRead == tally.requests, "the server answered what the generator counted")
      #expect(tally.errors == 0)
      #expect(tally.failures.isEmpty)
      #expect(tally.latencies.total == tally.requests)
      #expect(outcome.elapsedSeconds > 0)
      #expect(outcome.requestsPerSecond > 0)
      #expect(tally.latencies.percentile(0.5) > 0)
      #expect(tally.latencies.percentile(0.99) >= tally.latencies.percentile(0.5))
      let ticks = try #require(outcome.cpuTicks, "the server's CPU was read")
      #expect(ticks >= 0)
      // The line `stockroom-bench load` prints passes the comparison's own check.
      let line = ResultLine(Bench.summary(outcome, options))
      #expect(line["requests"] == String(tally.requests))
      var check = FigureCheck(try #require(try ComparisonOptions.parse(["--smoke"], environment: [:])))
      check.requests[.ping1] = 200
      #expect(check.problems(line, .ping1) == [])
    }
  }

  @Test("a timed load run counts only what was answered inside its window", arguments: [BenchTarget.stockroom, .redis])
  func timedLoad(target: BenchTarget) throws {
    try Self.with(target) { server in
      var options = Self.options(.load, server)
      (options.connections, options.duration, options.warmup) = (3, 0.3, 0.1)
      let before = try Self.served(server, .ping)
      let outcome = try LoadRun(options: options).execute()
      let sent = try Self.served(server, .ping) - before
      #expect(outcome.tally.requests > 0)
      #expect(outcome.tally.errors == 0)
      #expect(outcome.tally.failures.isEmpty)
      // Warmup replies are read but not counted, nor those answered after the window closed.
      #expect(sent >= outcome.tally.requests)
      #expect(outcome.elapsedSeconds == 0.3)
    }
  }

  @Test(
    "a fan-out run: every change reaches every watcher once, and each is one latency sample",
    arguments: [BenchTarget.stockroom, .redis])
  func fanOut(target: BenchTarget) throws {
    try Self.with(target, .fanout) { server in
      var options = Self.options(.fanout, server)
      (options.connections, options.changes) = (5, 7)
      let before = try BenchServers.counter(server, target == .stockroom ? "orders" : "publish")
      let outcome = try FanOutRun(options: options).execute()
      let changes = try BenchServers.counter(server, target == .stockroom ? "orders" : "publish") - before
      #expect(changes == 7, "the publisher made exactly the changes asked for")
      #expect(outcome.watchers == 5)
      #expect(outcome.latencies.total == 7)
      #expect(outcome.errors == 0)
      let (median, p99) = (outcome.latencies.percentile(0.5), outcome.latencies.percentile(0.99))
      #expect(median > 0)
      #expect(p99 >= median)
      // The histogram reads a bucket's middle, at most 1/128 above the largest sample.
      #expect(outcome.maximum + outcome.maximum / 128 >= p99)
    }
  }

  @Test(
    "an idle run holds its connections open and reads the server's memory around them",
    arguments: [BenchTarget.stockroom, .redis])
  func idle(target: BenchTarget) throws {
    try Self.with(target, .idle) { server in
      var options = Self.options(.idle, server)
      options.connections = 10
      let before = try Self.served(server, .ping)
      let outcome = try IdleRun(options: options).execute()
      let after = try Self.served(server, .ping)
      let perRead = try Self.served(server, .ping) - after
      #expect(after - before - perRead == 10, "one PING on each connection")
      #expect(outcome.connections == 10)
      #expect(outcome.residentBeforeKiB > 0)
      #expect(outcome.residentAfterKiB > 0)
    }
  }
}

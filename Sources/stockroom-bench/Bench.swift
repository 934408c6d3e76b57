import Foundation
import StockroomTLS

/// `stockroom-bench`'s whole life: parse, run once, print one line (or, for `report`, a table).
enum Bench {
  static func run(arguments: [String]) -> Never {
    // Its connection threads may still be ending when it exits: see TLSLibrary.
    TLSLibrary.prepare()
    if arguments.first == "make-db" { makeDatabase(Array(arguments.dropFirst())) }
    if arguments.first == "report" { report(Array(arguments.dropFirst())) }
    if arguments.first == "compare" { Comparison.run(arguments: Array(arguments.dropFirst())) }
    if arguments.first == "linearizable" { LinearizableCommand.run(arguments: Array(arguments.dropFirst())) }
    let options = CommandLineExit.parsedOrExit(
      usage: BenchOptions.usage, parse: { try BenchOptions.parse(arguments) },
      complaint: { "stockroom-bench: \($0)\n\(BenchOptions.usage)" })
    switch options.mode {
    case .load: load(options)
    case .idle: idle(options)
    case .fanout: fanOut(options)
    }
  }

  static func load(_ options: BenchOptions) -> Never {
    let outcome: LoadOutcome
    do {
      outcome = try LoadRun(options: options).execute()
    } catch {
      CommandLineExit.warn("stockroom-bench: \(error)")
      exit(69)
    }
    let tally = outcome.tally
    print(summary(outcome, options))
    if !tally.failures.isEmpty {
      // Identical reasons from fifty connections say nothing new; show each once.
      var seen = Set<String>()
      for failure in tally.failures where seen.insert(failure).inserted {
        CommandLineExit.warn("stockroom-bench: warning: a connection ended early, \(failure)")
      }
    }
    if tally.errors > 0 {
      CommandLineExit.warn(
        "stockroom-bench: warning: \(tally.errors) of \(tally.requests) requests failed;"
          + " this result is not valid")
    }
    exit(tally.requests > 0 ? 0 : 1)
  }

  static func idle(_ options: BenchOptions) -> Never {
    do {
      let outcome = try IdleRun(options: options).execute()
      let fields: [(String, String)] = [
        ("mode", "idle"),
        ("target", options.target.rawValue),
        ("connections", String(outcome.connections)),
        ("rss_before_kib", String(outcome.residentBeforeKiB)),
        ("rss_after_kib", String(outcome.residentAfterKiB)),
        ("bytes_per_connection", String(outcome.bytesPerConnection)),
        ("errors", "0"),
      ]
      print(fields.map { "\($0.0)=\($0.1)" }.joined(separator: " "))
      exit(0)
    } catch {
      CommandLineExit.warn("stockroom-bench idle: \(error)")
      exit(69)
    }
  }

  static func fanOut(_ options: BenchOptions) -> Never {
    do {
      let outcome = try FanOutRun(options: options).execute()
      let microseconds = { (nanoseconds: UInt64) in String(Int((Double(nanoseconds) / 1000).rounded())) }
      let fields: [(String, String)] = [
        ("mode", "fanout"),
        ("target", options.target.rawValue),
        ("watchers", String(outcome.watchers)),
        ("changes", String(outcome.latencies.total)),
        ("p50_us", microseconds(outcome.latencies.percentile(0.5))),
        ("p99_us", microseconds(outcome.latencies.percentile(0.99))),
        ("max_us", microseconds(outcome.maximum)),
        ("errors", String(outcome.errors)),
      ]
      print(fields.map { "\($0.0)=\($0.1)" }.joined(separator: " "))
      exit(outcome.errors == 0 ? 0 : 1)
    } catch {
      CommandLineExit.warn("stockroom-bench fanout: \(error)")
      exit(69)
    }
  }

  /// `report RESULTS [--out FILE]`: the table from a results file, and optionally its JSON.
  static func report(_ arguments: [String]) -> Never {
    guard let path = arguments.first, !path.hasPrefix("-") else {
      CommandLineExit.warn("usage: stockroom-bench report RESULTS [--out FILE]")
      exit(64)
    }
    var out: String? = nil
    if arguments.count == 3 && arguments[1] == "--out" {
      out = arguments[2]
    } else if arguments.count != 1 {
      CommandLineExit.warn("usage: stockroom-bench report RESULTS [--out FILE]")
      exit(64)
    }
    do {
      let report = BenchReport(text: try String(contentsOfFile: path, encoding: .utf8))
      print(report.table())
      if let out { try report.json().write(to: URL(fileURLWithPath: out)) }
      exit(0)
    } catch {
      CommandLineExit.warn("stockroom-bench report: \(error)")
      exit(69)
    }
  }

  static func makeDatabase(_ arguments: [String]) -> Never {
    if arguments.contains("--help") || arguments.isEmpty {
      print(DatabaseMaker.usage)
      exit(arguments.isEmpty ? 64 : 0)
    }
    do {
      let maker = try DatabaseMaker.parse(arguments)
      let started = Date()
      try maker.make()
      print("made \(maker.directory) in \(Int(Date().timeIntervalSince(started)))s")
      exit(0)
    } catch {
      CommandLineExit.warn("stockroom-bench make-db: \(error)")
      exit(69)
    }
  }

  /// Words of `key=value` so that a script can split it and a person can read it.
  static func summary(_ outcome: LoadOutcome, _ options: BenchOptions) -> String {
    let tally = outcome.tally
    let microseconds = { (fraction: Double) in
      Int((Double(tally.latencies.percentile(fraction)) / 1000).rounded())
    }
    var fields: [(String, String)] = [
      ("mode", "load"),
      ("target", options.target.rawValue),
      ("case", options.benchCase.rawValue),
      ("connections", String(options.connections)),
      ("pipeline", String(options.pipeline)),
      ("duration_s", String(format: "%.3f", outcome.elapsedSeconds)),
      ("requests", String(tally.requests)),
      ("rps", String(Int(outcome.requestsPerSecond.rounded()))),
      ("p50_us", String(microseconds(0.5))),
      ("p99_us", String(microseconds(0.99))),
      ("errors", String(tally.errors)),
      ("dropped", String(tally.failures.count)),
    ]
    if let cpu = outcome.cpuMicrosecondsPerRequest {
      fields.append(("cpu_us_per_request", String(format: "%.3f", cpu)))
      fields.append(("cpu_ticks", String(outcome.cpuTicks ?? 0)))
    }
    return fields.map { "\($0.0)=\($0.1)" }.joined(separator: " ")
  }
}

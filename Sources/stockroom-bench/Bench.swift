import Foundation

/// `stockroom-bench`'s whole life: parse, run once, print one line.
enum Bench {
  static func run(arguments: [String]) -> Never {
    if arguments.first == "make-db" { makeDatabase(Array(arguments.dropFirst())) }
    let options: BenchOptions
    do {
      guard let parsed = try BenchOptions.parse(arguments) else {
        print(BenchOptions.usage)
        exit(0)
      }
      options = parsed
    } catch {
      warn("stockroom-bench: \(error)\n\(BenchOptions.usage)")
      exit(64)
    }
    let tally: WorkerTally
    do {
      tally = try LoadRun(options: options).execute()
    } catch {
      warn("stockroom-bench: \(error)")
      exit(69)
    }
    print(summary(tally, options))
    if !tally.failures.isEmpty {
      // Identical reasons from fifty connections say nothing new; show each once.
      var seen = Set<String>()
      for failure in tally.failures where seen.insert(failure).inserted {
        warn("stockroom-bench: warning: a connection ended early, \(failure)")
      }
    }
    if tally.errors > 0 {
      warn(
        "stockroom-bench: warning: \(tally.errors) of \(tally.requests) requests failed;"
          + " this result is not valid")
    }
    exit(tally.requests > 0 ? 0 : 1)
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
      warn("stockroom-bench make-db: \(error)")
      exit(69)
    }
  }

  /// Words of `key=value` so that a script can split it and a person can read it.
  static func summary(_ tally: WorkerTally, _ options: BenchOptions) -> String {
    let microseconds = { (fraction: Double) in
      Int((Double(tally.latencies.percentile(fraction)) / 1000).rounded())
    }
    let fields: [(String, String)] = [
      ("target", options.target.rawValue),
      ("case", options.benchCase.rawValue),
      ("connections", String(options.connections)),
      ("pipeline", String(options.pipeline)),
      ("duration_s", String(options.duration)),
      ("requests", String(tally.requests)),
      ("rps", String(Int((Double(tally.requests) / options.duration).rounded()))),
      ("p50_us", String(microseconds(0.5))),
      ("p99_us", String(microseconds(0.99))),
      ("errors", String(tally.errors)),
      ("dropped", String(tally.failures.count)),
    ]
    return fields.map { "\($0.0)=\($0.1)" }.joined(separator: " ")
  }

  private static func warn(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
  }
}

import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The protocol fuzzer of `Scripts/test`: see `ProtocolFuzzer` for what it sends and checks.
///
/// `STOCKROOM_FUZZ_SECONDS` sets how long the random run fuzzes (default 60),
/// `STOCKROOM_FUZZ_SEED` replays a seed (decimal or 0x-hex; random otherwise, and always printed),
/// `STOCKROOM_FUZZ_WORKERS` how many connections run at once (default 40), and
/// `STOCKROOM_FUZZ_REPORT` names a file to append every problem found to (and `<file>.log`
/// the server's log). A seed sends the same
/// bytes on each worker's n-th connection every time; how many connections fit in the time, and
/// how the server interleaves them, varies from run to run.
@Suite("Protocol fuzzing against a real stockroomd", .timeLimit(.minutes(ProtocolFuzzer.minutesAllowed)))
struct ProtocolFuzzTests {
  /// Failures the fuzzer found, replayed first for a few seconds each: the seed, and the worker
  /// and connection that failed (every worker starts at that connection number, so the failing
  /// bytes go out first; a race may still need the replay to be lucky). Add one whenever the
  /// fuzzer finds a failure. Changing `RequestGenerator`, `FuzzScript`, `FuzzLinePool` or
  /// `FuzzVocabulary` changes what a seed sends: find the seeds again then (`STOCKROOM_FUZZ_REPORT`
  /// lists them), or keep the case as a test of its own. The cases found before the line pool
  /// (issue 19) are such tests now: `HalfCloseTests` (no reply to a half-closing client), `TextTests`
  /// (U+2028 sent raw, 6 KB error lines), `ReplyOrderTests` (ERR TOOLONG overtaking replies that
  /// wait for their commit) and `FuzzPasswordAttemptTests` (a fifth LOGIN that logs in).
  static let regressions: [(seed: UInt64, worker: Int, connection: Int, found: String)] = []

  static let regressionSeconds = 3.0

  @Test("grammar-aware and random requests over many connections never kill, wedge or bloat the server")
  func fuzz() throws {
    // A connection the server drops makes a write fail with EPIPE, to be reported, rather than
    // kill the whole test process with SIGPIPE.
    signal(SIGPIPE, SIG_IGN)
    let environment = ProcessInfo.processInfo.environment
    let workers = environment["STOCKROOM_FUZZ_WORKERS"].flatMap { Int($0) } ?? 40
    for regression in Self.regressions {
      print(
        "fuzz: regression seed=0x\(String(regression.seed, radix: 16)) from w\(regression.worker)c\(regression.connection): \(regression.found)"
      )
      try fuzz(
        ProtocolFuzzer.Settings(
          seed: regression.seed, seconds: Self.regressionSeconds, workers: max(workers, regression.worker + 1),
          firstConnection: regression.connection))
    }
    let seed = environment["STOCKROOM_FUZZ_SEED"].flatMap(Self.parseSeed) ?? UInt64.random(in: 0...UInt64.max)
    let seconds = environment["STOCKROOM_FUZZ_SECONDS"].flatMap { Double($0) } ?? 60
    try fuzz(ProtocolFuzzer.Settings(seed: seed, seconds: seconds, workers: workers))
  }

  private func fuzz(_ settings: ProtocolFuzzer.Settings) throws {
    let fuzzer = ProtocolFuzzer(settings: settings)
    // Printed before anything can go wrong, so a hang or a crash of the test still names the seed.
    print(
      "fuzz: seed=\(fuzzer.seedText) for \(settings.seconds) s with \(settings.workers) connections at once; replay with STOCKROOM_FUZZ_SEED=\(fuzzer.seedText)"
    )
    let (problems, summary, log) = try fuzzer.run()
    print(summary)
    // A few of each kind, so that one frequent failure does not hide a rare one.
    var shown: [String: Int] = [:]
    var recorded = 0
    for problem in problems {
      let kind = String(problem.drop { $0 != " " }.filter { !$0.isNumber }.prefix(48))
      shown[kind, default: 0] += 1
      guard shown[kind]! <= 3 && recorded < 30 else { continue }
      recorded += 1
      Issue.record("fuzz seed=\(fuzzer.seedText): \(problem)")
    }
    if recorded < problems.count {
      Issue.record("fuzz seed=\(fuzzer.seedText): \(problems.count - recorded) more problems of the same kinds")
    }
    if let path = ProcessInfo.processInfo.environment["STOCKROOM_FUZZ_REPORT"] {
      // Appended, one section per run, so regression runs and the random run all stay readable.
      let section = ([summary] + problems).joined(separator: "\n") + "\n"
      for (file, text) in [(path, section), (path + ".log", "== \(summary)\n" + log)] {
        if let handle = FileHandle(forWritingAtPath: file) {
          handle.seekToEndOfFile()
          handle.write(Data(text.utf8))
          handle.closeFile()
        } else {
          try text.write(toFile: file, atomically: true, encoding: .utf8)
        }
      }
    }
  }

  static func parseSeed(_ text: String) -> UInt64? {
    text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
  }
}

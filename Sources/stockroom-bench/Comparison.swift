import Foundation
import StockroomFixtures
import StockroomSystem

/// `stockroom-bench compare`, what `Scripts/bench` runs: every row against stockroomd and
/// redis-server in rounds, the servers taking turns to go first, each run on a freshly started
/// server and measured by a `stockroom-bench` run of its own; then the table of medians and
/// ratios, and the I/O backend, start-up and PostgreSQL sections.
final class Comparison {
  var options: ComparisonOptions
  let workdir: String
  /// This program, which measures every run as a process of its own.
  let generator: String
  var launcher: ServerLauncher
  /// Runs whose generator failed: the table says so; with --smoke the run fails too, at the end.
  var failedRuns = 0
  /// What `FigureCheck` found wrong in the table's rows: --smoke fails on any, at the end.
  var figureProblems: [String] = []

  init(options: ComparisonOptions, workdir: String, redisServer: String) throws(BenchError) {
    self.options = options
    self.workdir = workdir
    generator = Self.ownPath()
    let certificates: LoopbackCertificates
    do {
      // One CA and a server certificate for 127.0.0.1 that both servers present on their TLS ports.
      certificates = try LoopbackCertificates.shared()
    } catch {
      throw BenchError("cannot make the TLS rows' certificates: \(error)")
    }
    launcher = ServerLauncher(
      binaries: (generator as NSString).deletingLastPathComponent, redisServer: redisServer, workdir: workdir,
      options: options, certificates: certificates)
  }

  static func run(arguments: [String]) -> Never {
    let options = CommandLineExit.parsedOrExit(
      usage: ComparisonOptions.usage,
      parse: { try ComparisonOptions.parse(arguments, environment: ProcessInfo.processInfo.environment) },
      complaint: { "\($0)" })
    guard let redis = ChildProcess.find("redis-server"), ChildProcess.find("openssl") != nil else {
      CommandLineExit.warn("redis-server and openssl are needed for the comparison")
      exit(69)
    }
    var template = Array("/tmp/stockroom-bench-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else {
      CommandLineExit.warn("cannot make a work folder in /tmp")
      exit(1)
    }
    let workdir = String(cString: made)
    let interrupts = Interrupts(workdir: workdir)
    let passed: Bool
    do {
      let comparison = try Comparison(options: options, workdir: workdir, redisServer: redis)
      passed = try comparison.execute()
    } catch {
      CommandLineExit.warn("\(error)")
      passed = false
    }
    withExtendedLifetime(interrupts) { Interrupts.stopChildren(workdir: workdir) }
    exit(passed ? 0 : 1)
  }

  /// Everything in order; false when --smoke saw a run fail or a row without sane figures.
  func execute() throws(BenchError) -> Bool {
    raiseFileLimit()
    try compareServers()
    if options.backends { try compareBackends() }
    if options.startupOrders > 0 { try timeStartup() }
    if options.postgres { try compareStores() }
    guard options.mode == .smoke else { return true }
    if failedRuns > 0 { CommandLineExit.warn("--smoke: \(failedRuns) run(s) failed") }
    if !figureProblems.isEmpty {
      CommandLineExit.warn("--smoke: \(figureProblems.count) row figure(s) not sane, the first: \(figureProblems[0])")
    }
    return failedRuns == 0 && figureProblems.isEmpty
  }

  /// Ten thousand idle connections need as many descriptors in the generator and in each
  /// server; both servers raise their own soft limit to the hard one, the generator inherits
  /// this process's, raised here.
  func raiseFileLimit() {
    var limits = rlimit()
    guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limits) == 0 else { return }
    // RLIM_INFINITY is all ones, which no idle count reaches.
    if limits.rlim_max < rlim_t(options.idleConnections + 200) {
      options.idleConnections = Int(limits.rlim_max) - 200
      launcher = ServerLauncher(
        binaries: launcher.binaries, redisServer: launcher.redisServer, workdir: workdir, options: options,
        certificates: launcher.certificates)
      CommandLineExit.warn(
        "the open-file limit is \(limits.rlim_max): measuring \(options.idleConnections) idle connections")
    }
    limits.rlim_cur = limits.rlim_max
    setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limits)
  }

  /// The rows against both servers, and the table of medians and ratios.
  func compareServers() throws(BenchError) {
    var results = MachineFacts.meta(options: options, workdir: workdir)
    let cores = ProcessInfo.processInfo.activeProcessorCount
    CommandLineExit.warn(
      "cores: \(cores), shared by the generator and the server under test; redis-server \(MachineFacts.redisVersion(launcher.redisServer));"
        + " \(options.rounds) round(s), the servers taking turns to go first; \(options.connections) connections per throughput run"
    )
    for round in 1...options.rounds {
      for row in options.rows {
        let order = round % 2 == 0 ? row.targets.reversed() : row.targets
        for target in order { results.append(try measure(target, row, round: round)) }
      }
    }
    results.append("meta load_after=\(MachineFacts.loadAverage())")
    print()
    if options.mode == .smoke { print("--smoke: a few hundred requests a row; the figures mean nothing") }
    if options.mode == .quick {
      print(
        "--quick: \(options.idleConnections) idle connections, \(options.watchers) watchers, \(options.changes) changes,"
          + " \(options.rounds) round(s); indicative only")
    }
    let report = BenchReport(text: results.joined(separator: "\n"))
    print(report.table())
    checkFigures(report)
    if let out = options.out {
      do {
        try report.json().write(to: URL(fileURLWithPath: out))
      } catch {
        throw BenchError("cannot write \(out): \(error)")
      }
      print("wrote \(out)")
    }
  }

  /// Every row's figures for both servers, each fault said on standard error; --smoke also says
  /// on standard output that all were sane, so that a log's tail shows what was checked.
  func checkFigures(_ report: BenchReport) {
    figureProblems = FigureCheck(options).problems(in: report)
    for problem in figureProblems { CommandLineExit.warn("figures: \(problem)") }
    if options.mode == .smoke && figureProblems.isEmpty {
      print("--smoke: every row has sane figures for both servers (\(options.rows.count) rows)")
    }
  }

  /// One run on a freshly started server; its result line, tagged (a failed run is recorded as
  /// invalid, so that the table says so instead of leaving a hole).
  func measure(_ target: BenchTarget, _ row: ReportRow, round: Int, tag: String? = nil) throws(BenchError)
    -> String
  {
    let server = try launcher.start(target, row)
    let arguments = GeneratorCommand.arguments(
      row: row, server: server, options: options, caFile: launcher.certificates.ca)
    let result = generate(arguments, against: target)
    launcher.stop(server)
    let line = (tag.map { "\($0) " } ?? "") + "row=\(row.rawValue) server=\(target.rawValue) round=\(round) \(result)"
    CommandLineExit.warn(line)
    return line
  }

  /// One generator run, bounded twice: by its own socket timeouts, and by five minutes here.
  /// Its line, or `errors=failed`.
  func generate(_ arguments: [String], against target: BenchTarget) -> String {
    let output = "\(workdir)/generator.out"
    let errors = "\(workdir)/generator.err"
    var status: Int32? = nil
    if let run = try? ChildProcess(generator, arguments, stdout: output, stderr: errors) {
      status = run.wait(seconds: 300)
    }
    // The generator's warnings go where they always went, after its run rather than during it.
    if let text = try? String(contentsOfFile: errors, encoding: .utf8), !text.isEmpty {
      FileHandle.standardError.write(Data(text.utf8))
    }
    let line = (try? String(contentsOfFile: output, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    guard status == 0, let line else {
      CommandLineExit.warn("stockroom-bench \(arguments.joined(separator: " ")) against \(target.rawValue) failed")
      failedRuns += 1
      return "errors=failed"
    }
    return line
  }

  static func ownPath() -> String {
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
  }
}

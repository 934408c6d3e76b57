import Foundation
import StockroomProtocol
import Synchronization

/// One fuzzing run: a real `stockroomd` on a fresh data directory, many connections sending
/// request lines made from the command table and mangled, then the shop checked and restarted.
struct ProtocolFuzzer {
  struct Settings: Sendable {
    var seed: UInt64
    var seconds: Double
    var workers = 40
    /// Where each worker's connection numbers start: a regression case starts at the connection
    /// that failed, so the same bytes go out first.
    var firstConnection = 0
  }

  /// Above the 40 workers, so that floods push past it and some connections are turned away.
  static let maxClients = 48
  /// The server's resident memory must stay below this. The documented per-connection buffers
  /// at most hold a 64 KiB request line and 8 MiB of unsent watcher output, so 48 connections
  /// can pin about 390 MiB at worst; a fresh server is about 30 MiB, the two password threads
  /// take 64 MiB each while they hash, and what a minute of fuzzing adds to the shop is a few MiB
  /// when every text limit bounds bytes. 640 MiB leaves room for all of that and still catches
  /// memory that grows with what clients send.
  static let residentLimitKiB = 640 * 1024
  static let serverArguments = ["--initial-stock", "1000000", "--max-clients", String(maxClients)]
  /// How long the connections may take to finish after the fuzzing time is up.
  static let finishSeconds: TimeInterval = 180
  /// `ProtocolFuzzTests`'s time limit: half an hour more than the fuzzing asked for
  /// (STOCKROOM_FUZZ_SECONDS) takes, so a wedged run ends and a long one asked for is not cut short.
  static var minutesAllowed: Int64 {
    let asked = ProcessInfo.processInfo.environment["STOCKROOM_FUZZ_SECONDS"].flatMap { Double($0) } ?? 60
    return 30 + Int64(min(max(asked, 0) / 60, 1_000_000).rounded(.up))
  }

  let settings: Settings

  var seedText: String { "0x" + String(settings.seed, radix: 16) }

  /// The problems found, each a sentence with what to replay, a summary of the run, and the
  /// server's log (of both starts).
  func run() throws -> (problems: [String], summary: String, log: String) {
    let data = try DataDirectory()
    for account in FuzzVocabulary.accounts { try data.addAccount(account.name, role: account.role) }
    try data.addAccount("fuzz-checker", role: .staff)
    let (daemon, port) = try data.start(Self.serverArguments)
    let checker = try LineClient.greeted(port, user: "fuzz-checker")
    let vocabulary = FuzzVocabulary(names: try checker.request("NAMES"))
    let maxLine = Int(try checker.request("INFO").rows.first?["max_line"] ?? "") ?? 65536
    let generator = RequestGenerator(vocabulary: vocabulary, maxLine: maxLine)
    let pool = FuzzLinePool(seed: settings.seed, generator: generator)
    var problems: [String] = []
    let total = Mutex(FuzzOutcome())
    let stop = Atomic<Bool>(false)
    let settings = self.settings
    let started = Date()
    let deadline = started.addingTimeInterval(settings.seconds)
    let finished = DispatchGroup()
    for worker in 0..<settings.workers {
      finished.enter()
      Thread {
        defer { finished.leave() }
        var outcome = FuzzOutcome()
        var connection = settings.firstConnection
        while Date() < deadline && !stop.load(ordering: .relaxed) && connection < settings.firstConnection + 100_000 {
          let script = FuzzScript(
            seed: settings.seed, worker: worker, connection: connection, generator: generator, pool: pool)
          outcome.add(FuzzConnection(script: script, port: port).run())
          connection += 1
        }
        total.withLock { $0.add(outcome) }
      }.start()
    }

    // However this function ends, the workers stop and are waited for (they end within seconds
    // once told, or once the server is gone).
    defer {
      stop.store(true, ordering: .relaxed)
      _ = finished.wait(timeout: .now() + FuzzConnection.stallSeconds + 10)
    }

    // While the workers run: the process is alive, its memory bounded, its client count sane.
    let pid = daemon.process.processIdentifier
    var largestKiB = 0
    var lastInfo = Date.distantPast
    var checkerWorks = true
    while finished.wait(timeout: .now() + 0.1) == .timedOut {
      if let resident = ProcessMemory.residentKiB(of: pid) { largestKiB = max(largestKiB, resident) }
      if !daemon.process.isRunning && !stop.load(ordering: .relaxed) {
        stop.store(true, ordering: .relaxed)
        problems.append(
          "the server died (status \(daemon.process.terminationStatus)); log ends:\n\(daemon.log.suffix(2000))")
      }
      if Date() > deadline.addingTimeInterval(Self.finishSeconds) {
        stop.store(true, ordering: .relaxed)
        problems.append("connections still running \(Int(Self.finishSeconds)) s after the fuzzing time")
        break
      }
      if checkerWorks && daemon.process.isRunning && Date().timeIntervalSince(lastInfo) >= 1 {
        lastInfo = Date()
        do {
          let clients = try checker.request("INFO").rows.first?["clients"].flatMap { Int($0) } ?? -1
          if !(1...Self.maxClients).contains(clients) {
            problems.append(
              "INFO says clients=\(clients) with \(settings.workers) workers and --max-clients \(Self.maxClients)")
            // Once is enough to say so.
            lastInfo = .distantFuture
          }
        } catch {
          problems.append("the checking connection failed during the run: \(error)")
          checkerWorks = false
        }
      }
    }
    let outcome = total.withLock { $0 }
    problems += outcome.problems
    if largestKiB > Self.residentLimitKiB {
      problems.append(
        "server RSS reached \(largestKiB / 1024) MiB, above the \(Self.residentLimitKiB / 1024) MiB bound")
    }
    let connections = FuzzBehaviour.allCases.map { "\($0) \(outcome.connections[$0] ?? 0)" }.joined(separator: ", ")
    let seconds = Date().timeIntervalSince(started)
    let perSecond = Int(Double(outcome.linesSent) / max(seconds, 0.001))
    var summary =
      "fuzz seed=\(seedText): \(Int(seconds)) s, \(settings.workers) workers, \(perSecond) requests/s (\(outcome.linesSent) request lines sent), connections: \(connections); \(outcome.countedLines) lines counted, \(outcome.replies) replies, \(outcome.events) events, \(outcome.rejected) turned away, \(outcome.closedEarly) ended by QUIT/TOOLONG/another protocol, \(outcome.bytesSent / 1024) KiB sent; largest RSS \(largestKiB / 1024) MiB"
    guard daemon.process.isRunning else {
      if !problems.contains(where: { $0.hasPrefix("the server died") }) {
        problems.append(
          "the server died (status \(daemon.process.terminationStatus)); log ends:\n\(daemon.log.suffix(2000))")
      }
      return (problems, summary, daemon.log)
    }
    var log = ""
    do {
      // A checking connection that broke during the run (already a problem) is replaced.
      let finalChecker = checkerWorks ? checker : try LineClient.greeted(port, user: "fuzz-checker")
      summary += try checkShop(daemon: daemon, checker: finalChecker, data: data, problems: &problems, log: &log)
    } catch {
      let state =
        daemon.process.isRunning ? "still running" : "exited with status \(daemon.process.terminationStatus)"
      problems.append("checking the shop after the run failed: \(error); the server \(state)")
      log = daemon.log
    }
    return (problems, summary, log)
  }

  /// Once the fuzzing is over: the server answers, every connection is let go, every item's stock
  /// equation holds, and a clean restart loads the same shop. Returns a summary of the shop.
  private func checkShop(
    daemon: DaemonProcess, checker: LineClient, data: DataDirectory, problems: inout [String], log: inout String
  ) throws -> String {
    let pong = try checker.request("PING")
    if pong.message != "PONG" { problems.append("PING after the run answered \(pong.lines)") }
    let settling = Date()
    let deadline = settling.addingTimeInterval(30)
    var clients = ""
    repeat {
      clients = try checker.request("INFO").rows.first?["clients"] ?? ""
      if clients == "1" { break }
      usleep(50_000)
    } while Date() < deadline
    let settled = String(format: "%.1f", Date().timeIntervalSince(settling))
    if clients != "1" {
      problems.append(
        "30 s after every fuzzing connection closed, INFO still says clients=\(clients), not 1 (this check's own)")
    }
    // A change of its own: once it is answered, every change before it has been committed.
    let barrier = try checker.request("ADD banana 1")
    if !barrier.isOK { problems.append("ADD banana 1 after the run answered \(barrier.lines)") }
    try checkStockEquation(checker, problems: &problems)
    let before = try ShopSnapshot(checker)
    checker.closeNow()
    daemon.process.terminate()
    let status = try daemon.waitForExit()
    if status != 0 {
      problems.append("SIGTERM after the run: exit status \(status); log ends:\n\(daemon.log.suffix(2000))")
    }
    log = daemon.log
    let (again, port) = try data.start(Self.serverArguments)
    defer {
      again.process.terminate()
      _ = try? again.waitForExit()
      log += again.log
    }
    let reader = try LineClient.greeted(port, user: "fuzz-checker")
    let after = try ShopSnapshot(reader)
    reader.closeNow()
    if let difference = before.difference(from: after) {
      problems.append("the restart did not load the same shop: \(difference)")
    }
    return "; clients=1 after \(settled) s; shop: \(before)"
  }

  /// `STOCKTAKE` of every stocked item says `balances=yes`. Sent in batches: pipelined, but not
  /// so many at once that the replies back up past the server's high-water mark unread.
  private func checkStockEquation(_ client: LineClient, problems: inout [String]) throws {
    let items = try client.request("STOCK").rows.compactMap(\.id)
    var unbalanced: [String] = []
    var start = 0
    while start < items.count {
      let batch = items[start..<min(start + 50, items.count)]
      try client.send(batch.map { "STOCKTAKE \(Quoting.quote($0)) size=1\n" }.joined())
      for item in batch {
        let reply = try client.readReply()
        if reply.rows.first?["balances"] != "yes" { unbalanced.append("\(item): \(reply.lines.first ?? "")") }
      }
      start += 50
    }
    if !unbalanced.isEmpty {
      problems.append("the stock equation fails for \(unbalanced.count) items: \(unbalanced.prefix(5))")
    }
  }
}

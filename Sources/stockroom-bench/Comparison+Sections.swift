import Foundation
import StockroomSystem

/// The sections after the table: Stockroom's two I/O backends, and start-up on a large shop.
extension Comparison {
  /// The same Stockroom runs with `--io epoll` and `--io dispatch`, taking turns to go first,
  /// medians of the rounds.
  func compareBackends() throws(BenchError) {
    var runs: [String] = []
    for round in 1...options.rounds {
      let backends = round % 2 == 0 ? ["dispatch", "epoll"] : ["epoll", "dispatch"]
      for row in options.backendRows {
        for io in backends {
          launcher.io = io
          runs.append(try measure(.stockroom, row, round: round, tag: "io=\(io)"))
        }
      }
    }
    launcher.io = nil
    print()
    print("stockroomd --io epoll against --io dispatch, Stockroom alone; medians of \(options.rounds) round(s).")
    print("Ratios above 1 mean dispatch is better (rps dispatch ÷ epoll, CPU epoll ÷ dispatch):")
    print(SectionTable.backends(runs.map(ResultLine.init)))
    fflush(nil)
  }

  /// How long a restart keeps a large shop away, from launching stockroomd to its first
  /// greeting; the server's own open_ms/load_ms come from its log.
  func timeStartup() throws(BenchError) {
    let orders = options.startupOrders
    print()
    print("start-up on a large database (\(orders) orders of 40 lines; making it takes a minute or two)")
    fflush(nil)
    let folder = "\(workdir)/large"
    // A process of its own, as before: the shop's lock and its SQLite handles go with it.
    let made = "\(workdir)/make-db.out"
    let maker = try ChildProcess(
      generator, ["make-db", folder, "--orders", String(orders), "--keyed", String(orders * 3 / 4), "--lines", "40"],
      stdout: made, stderr: "\(made).err")
    let status = maker.wait(seconds: 3600)
    for file in [made, "\(made).err"] {
      if let text = try? String(contentsOfFile: file, encoding: .utf8), !text.isEmpty {
        CommandLineExit.warn(text.trimmingCharacters(in: .newlines))
      }
    }
    guard status == 0 else { throw BenchError("stockroom-bench make-db failed") }
    let megabytes = Self.diskMegabytes(folder)
    print(Self.startupLine("size_mb", "listening_ms"))
    for _ in 1...3 {
      let launched = MonotonicClock.now()
      guard let server = try launcher.startStockroom(["--data", folder], seconds: 120, common: false) else {
        throw BenchError("stockroomd did not start")
      }
      print(Self.startupLine(String(megabytes), String((MonotonicClock.now() - launched) / 1_000_000)))
      fflush(nil)
      server.process.stop()
    }
  }

  /// `printf '%-10s %14s\n'`.
  static func startupLine(_ size: String, _ milliseconds: String) -> String {
    size.padding(toLength: max(10, size.count), withPad: " ", startingAt: 0) + " "
      + String(repeating: " ", count: max(0, 14 - milliseconds.count)) + milliseconds
  }

  /// What `du -sm` says: the blocks the folder's files take, in MiB, rounded up.
  static func diskMegabytes(_ folder: String) -> Int {
    var bytes = 0
    let paths =
      [folder] + ((try? FileManager.default.subpathsOfDirectory(atPath: folder)) ?? []).map { "\(folder)/\($0)" }
    for path in paths {
      var info = stat()
      if lstat(path, &info) == 0 { bytes += Int(info.st_blocks) * 512 }
    }
    return (bytes + (1 << 20) - 1) >> 20
  }
}

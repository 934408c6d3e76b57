import Foundation
import StockroomFixtures
import StockroomSystem

/// Starts each row's server fresh for every run, quiet (Redis logs no connection either), on
/// 127.0.0.1, and waits until it answers; stops it and removes what it wrote.
struct ServerLauncher {
  /// The folder holding `stockroomd` (the release build beside this program).
  let binaries: String
  let redisServer: String
  let workdir: String
  let options: ComparisonOptions
  let certificates: LoopbackCertificates
  /// `--io BACKEND` for the I/O backend section, nil for the server's default.
  var io: String? = nil

  /// What a row asks of stockroomd beyond the options every run has.
  func stockroomArguments(_ row: ReportRow, tlsPort: UInt16?) -> [String] {
    let data = ["--data", "\(workdir)/data"]
    let tls = tlsPort.map {
      ["--tls-cert", certificates.serverCertificate, "--tls-key", certificates.serverKey, "--tls-port", String($0)]
    }
    switch row {
    case .orderAlways: return data + ["--fsync", "always"]
    case .orderBatch: return data + ["--fsync", "batch"]
    case .ping1TLS: return ["--memory"] + (tls ?? [])
    case .orderTLS: return data + ["--fsync", "always"] + (tls ?? [])
    default: return ["--memory"]
    }
  }

  /// What a row asks of redis-server: persistence only where the row says.
  func redisArguments(_ row: ReportRow, tlsPort: UInt16?) -> [String] {
    let tls = tlsPort.map {
      [
        "--tls-port", String($0), "--tls-cert-file", certificates.serverCertificate, "--tls-key-file",
        certificates.serverKey, "--tls-ca-cert-file", certificates.ca, "--tls-auth-clients", "no",
      ]
    }
    switch row {
    case .orderAlways: return ["--appendonly", "yes", "--appendfsync", "always"]
    case .orderBatch: return ["--appendonly", "yes", "--appendfsync", "everysec"]
    case .ping1TLS: return ["--appendonly", "no"] + (tls ?? [])
    case .orderTLS: return ["--appendonly", "yes", "--appendfsync", "always"] + (tls ?? [])
    default: return ["--appendonly", "no"]
    }
  }

  /// The row's server. A TLS row's server keeps its plain port too, which the readiness checks
  /// use; the load goes to the TLS port.
  func start(_ target: BenchTarget, _ row: ReportRow) throws(BenchError) -> RunningServer {
    for _ in 1...3 {
      let tlsPort = row == .ping1TLS || row == .orderTLS ? try Self.freePort() : nil
      let server: RunningServer?
      switch target {
      case .stockroom: server = try startStockroom(stockroomArguments(row, tlsPort: tlsPort), tlsPort: tlsPort)
      case .redis: server = try startRedis(redisArguments(row, tlsPort: tlsPort), tlsPort: tlsPort)
      case .ceiling: server = try startCeiling()
      }
      // Someone else may have taken a port picked in advance; then try again with others.
      if let server { return server }
    }
    let log = "\(workdir)/\(target == .redis ? "redis" : FigureCheck.program(target.rawValue)).log"
    let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
    throw BenchError("\(FigureCheck.program(target.rawValue)) did not start (log below)\n\(text)")
  }

  /// stockroomd with `--port 0`: the port the kernel gave it is read back from /proc. nil when
  /// it did not come up within `seconds`.
  func startStockroom(
    _ arguments: [String], tlsPort: UInt16? = nil, log: String? = nil, seconds: Double = 10, common: Bool = true
  ) throws(BenchError) -> RunningServer? {
    let shared =
      common
      ? [
        "--initial-stock", "1000000000", "--max-clients", String(options.maxClients),
        // The load generator is one address standing for many clients, as Redis's is.
        "--max-clients-per-address", "0", "--order-rate", "0",
      ] + options.stockroomArguments + (io.map { ["--io", $0] } ?? []) : []
    let process = try ChildProcess(
      "\(binaries)/stockroomd", ["--port", "0", "--quiet"] + shared + arguments,
      stderr: log ?? "\(workdir)/stockroomd.log")
    var port: UInt16? = nil
    let up = Self.waitFor(seconds: seconds, while: process) {
      port = port ?? ListeningSockets.ports(of: process.pid).first { $0 != tlsPort }
      return port.map { ServerProbe.answers(.stockroom, port: $0) } ?? false
    }
    guard up, let port else {
      stop(process, removing: nil)
      return nil
    }
    return RunningServer(target: .stockroom, process: process, port: port, tlsPort: tlsPort)
  }

  /// redis-server without snapshots on a port picked here (Redis's port 0 means no TCP at all).
  func startRedis(_ arguments: [String], tlsPort: UInt16?) throws(BenchError) -> RunningServer? {
    let port = try Self.freePort()
    try? FileManager.default.createDirectory(atPath: "\(workdir)/redis", withIntermediateDirectories: true)
    let process = try ChildProcess(
      redisServer,
      [
        "--port", String(port), "--save", "", "--bind", "127.0.0.1", "--dir", "\(workdir)/redis", "--maxclients",
        String(options.maxClients),
      ] + arguments + ["--daemonize", "no"], stdout: "\(workdir)/redis.log", stderr: "\(workdir)/redis.err")
    guard Self.waitFor(seconds: 10, while: process, { ServerProbe.answers(.redis, port: port) }) else {
      stop(process, removing: "\(workdir)/redis")
      return nil
    }
    return RunningServer(target: .redis, process: process, port: port, tlsPort: tlsPort)
  }

  /// The C ceiling, built beside this program, on a port picked here; it writes nothing.
  func startCeiling() throws(BenchError) -> RunningServer? {
    let port = try Self.freePort()
    let process = try ChildProcess(
      "\(binaries)/stockroom-ceiling", [String(port)], stderr: "\(workdir)/stockroom-ceiling.log")
    guard Self.waitFor(seconds: 10, while: process, { ServerProbe.answers(.ceiling, port: port) }) else {
      stop(process, removing: nil)
      return nil
    }
    return RunningServer(target: .ceiling, process: process, port: port)
  }

  /// Stops a run's server and removes what it wrote, so that the next run starts fresh.
  func stop(_ server: RunningServer) {
    switch server.target {
    case .stockroom: stop(server.process, removing: "\(workdir)/data")
    case .redis: stop(server.process, removing: "\(workdir)/redis")
    case .ceiling: stop(server.process, removing: nil)
    }
  }

  private func stop(_ process: ChildProcess, removing folder: String?) {
    process.stop()
    if let folder { try? FileManager.default.removeItem(atPath: folder) }
  }

  /// Polls `condition` until it holds; false at the deadline, or at once when the process has
  /// ended (what it waits for can no longer happen).
  static func waitFor(seconds: Double, while process: ChildProcess, _ condition: () -> Bool) -> Bool {
    let deadline = MonotonicClock.now() + UInt64(seconds * 1e9)
    while true {
      if condition() { return true }
      guard process.isRunning, MonotonicClock.now() < deadline else { return false }
      usleep(50_000)
    }
  }

  static func freePort() throws(BenchError) -> UInt16 {
    do {
      return try PostgresCluster.freePort()
    } catch {
      throw BenchError("\(error)")
    }
  }
}

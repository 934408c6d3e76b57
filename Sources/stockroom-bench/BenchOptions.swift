import StockroomProtocol
import StockroomTLS

/// Everything `stockroom-bench` is told on its command line.
struct BenchOptions: Sendable, Equatable {
  var mode = BenchMode.load
  var target = BenchTarget.stockroom
  var host = "127.0.0.1"
  /// nil means the target's usual port.
  var port: UInt16? = nil
  var connections = 50
  var pipeline = 1
  var duration = 5.0
  var benchCase = BenchCase.ping
  var warmup = 1.0
  /// How long a connection waits on a silent server before it gives up; bounds every run.
  var timeoutSeconds = 5
  /// Measure exactly this many requests (after the warmup) instead of `duration` seconds, so
  /// that CPU per request is taken over the same work on every server.
  var requests: Int? = nil
  /// The server's process: its CPU time (load) or resident memory (idle) is read from /proc.
  var serverPID: Int32? = nil
  /// More nodes of the same shop (`--also-port`, `--also-server-pid`): load spreads its
  /// connections over all the ports in turn and counts the CPU of every node.
  var morePorts: [UInt16] = []
  var moreServerPIDs: [Int32] = []
  /// Changes the publisher makes in a fan-out run, each waited for by every watcher.
  var changes = 200
  /// `--tls`: load runs connect with TLS, trusting `--cacert` (else the system's CAs).
  var tls = false
  var caFile: String? = nil

  /// The most connections `load` runs, one thread each; idle and fan-out connections share one.
  static let loadConnectionLimit = 1000

  var resolvedPort: UInt16 {
    port ?? (target == .redis ? 6379 : ProtocolVersion.defaultPort)
  }

  /// The port connection number `index` uses.
  func port(forConnection index: Int) -> UInt16 {
    let ports = [resolvedPort] + morePorts
    return ports[index % ports.count]
  }

  static let usage = """
    usage: stockroom-bench [load|idle|fanout] [options]
           stockroom-bench report RESULTS [--out FILE]
           stockroom-bench make-db DIR [options]
           stockroom-bench compare [--quick | --smoke] [--out FILE]   (what Scripts/bench runs)
           stockroom-bench linearizable --initial N FILE   (checks a recorded history)

      load (default)             every connection repeats --case; prints rps, latency, CPU
      idle                       opens --connections that send one PING and then nothing;
                                 prints the server's RSS growth per connection (needs --server-pid)
      fanout                     --connections watchers (WATCH banana / SUBSCRIBE banana) and one
                                 publisher making --changes changes (ORDER banana / PUBLISH);
                                 prints p50/p99 from a change's send to the last watcher's receipt

      --target stockroom|redis|ceiling   server to load (default stockroom)
      --host HOST                address or name of the server (default 127.0.0.1)
      --port PORT                default 7878 for stockroom, 6379 for redis
      --connections N            connections (default 50; load at most 1000, others 20000)
      --pipeline N               requests sent per batch before reading the replies (default 1)
      --duration SECONDS         measured time (default 5)
      --case ping|stock|order    the request repeated (default ping)
      --warmup SECONDS           load before measuring starts (default 1)
      --requests N               measure N requests instead of --duration seconds
      --server-pid PID           read the server's CPU time (load) or RSS (idle) from /proc
      --also-port PORT           load: another node of the same shop; connections take turns (repeatable)
      --also-server-pid PID      load: another node's process, whose CPU counts too (repeatable)
      --changes N                fan-out changes (default 200)
      --tls                      load over TLS, checking the certificate against --host
      --cacert FILE              the CA that signed the server's certificate (default: the system's)
      --help                     this text

    Prints one line: target=... case=... requests=N rps=N p50_us=N p99_us=N errors=N ...
    Stockroom needs large stock for the order case: stockroomd --initial-stock 1000000000.
    """

  /// The client side of TLS, when `--tls` asks for it.
  func tlsContext() throws(BenchError) -> TLSContext? {
    guard tls else { return nil }
    do {
      return try TLSContext.client(caFile: caFile)
    } catch {
      throw BenchError("TLS: \(error)")
    }
  }

  /// The options asked for, or nil when the command line asked for help.
  static func parse(_ words: [String]) throws(BenchError) -> BenchOptions? {
    // `--flag=value` is read as `--flag value`, as stockroomd does.
    let arguments = words.flatMap { word -> [String] in
      guard word.hasPrefix("--"), let equals = word.firstIndex(of: "=") else { return [word] }
      return [String(word[..<equals]), String(word[word.index(after: equals)...])]
    }
    var options = BenchOptions()
    var index = 0
    if let first = arguments.first, let mode = BenchMode(rawValue: first) {
      options.mode = mode
      index = 1
    }
    func value(_ flag: String) throws(BenchError) -> String {
      index += 1
      guard index < arguments.count else { throw BenchError("\(flag) needs a value") }
      return arguments[index]
    }
    func integer(_ flag: String, _ range: ClosedRange<Int>) throws(BenchError) -> Int {
      let text = try value(flag)
      guard let number = Int(text), range.contains(number) else {
        throw BenchError(
          "\(flag) takes a whole number from \(range.lowerBound) to \(range.upperBound)")
      }
      return number
    }
    // Bounded so that every run ends by itself.
    func seconds(_ flag: String, _ range: ClosedRange<Double>) throws(BenchError) -> Double {
      let text = try value(flag)
      guard let number = Double(text), range.contains(number) else {
        throw BenchError("\(flag) takes seconds from \(range.lowerBound) to \(range.upperBound)")
      }
      return number
    }
    func choice<T: RawRepresentable & CaseIterable>(_ flag: String) throws(BenchError) -> T
    where T.RawValue == String {
      let text = try value(flag)
      guard let chosen = T(rawValue: text) else {
        let names = T.allCases.map(\.rawValue).joined(separator: "|")
        throw BenchError("\(flag) takes \(names), not '\(text)'")
      }
      return chosen
    }
    while index < arguments.count {
      let argument = arguments[index]
      switch argument {
      case "--help", "-h": return nil
      case "--target": options.target = try choice(argument)
      case "--host": options.host = try value(argument)
      case "--port": options.port = UInt16(try integer(argument, 1...65535))
      case "--connections": options.connections = try integer(argument, 1...20000)
      case "--pipeline": options.pipeline = try integer(argument, 1...1024)
      case "--duration": options.duration = try seconds(argument, 0.1...600)
      case "--case": options.benchCase = try choice(argument)
      case "--warmup": options.warmup = try seconds(argument, 0...60)
      case "--requests": options.requests = try integer(argument, 1...1_000_000_000)
      case "--server-pid": options.serverPID = Int32(try integer(argument, 1...Int(Int32.max)))
      case "--also-port": options.morePorts.append(UInt16(try integer(argument, 1...65535)))
      case "--also-server-pid": options.moreServerPIDs.append(Int32(try integer(argument, 1...Int(Int32.max))))
      case "--changes": options.changes = try integer(argument, 1...100_000)
      case "--tls": options.tls = true
      case "--cacert": options.caFile = try value(argument)
      default: throw BenchError("unknown option '\(argument)'; try --help")
      }
      index += 1
    }
    if options.mode == .load && options.connections > loadConnectionLimit {
      throw BenchError("load runs one thread per connection: --connections at most \(loadConnectionLimit)")
    }
    if options.tls && options.mode != .load {
      throw BenchError("--tls is for load runs")
    }
    if options.caFile != nil && !options.tls {
      throw BenchError("--cacert goes with --tls")
    }
    if options.mode == .idle && options.serverPID == nil {
      throw BenchError("idle measures the server's memory: it needs --server-pid")
    }
    return options
  }
}

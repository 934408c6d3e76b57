import StockroomProtocol

/// Everything `stockroom-bench` is told on its command line.
struct BenchOptions: Sendable, Equatable {
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

  var resolvedPort: UInt16 {
    port ?? (target == .redis ? 6379 : ProtocolVersion.defaultPort)
  }

  static let usage = """
    usage: stockroom-bench [options]

      --target stockroom|redis   server to load (default stockroom)
      --host ADDRESS             numeric IPv4 address (default 127.0.0.1)
      --port PORT                default 7878 for stockroom, 6379 for redis
      --connections N            connections, one thread each (default 50)
      --pipeline N               requests sent per batch before reading the replies (default 1)
      --duration SECONDS         measured time (default 5)
      --case ping|stock|order    the request repeated (default ping)
      --warmup SECONDS           load before measuring starts (default 1)
      --help                     this text

    Prints one line: target=... case=... requests=N rps=N p50_us=N p99_us=N errors=N ...
    Stockroom needs large stock for the order case: stockroomd --initial-stock 1000000000.
    """

  /// The options asked for, or nil when the command line asked for help.
  static func parse(_ words: [String]) throws(BenchError) -> BenchOptions? {
    // `--flag=value` is read as `--flag value`, as stockroomd does.
    let arguments = words.flatMap { word -> [String] in
      guard word.hasPrefix("--"), let equals = word.firstIndex(of: "=") else { return [word] }
      return [String(word[..<equals]), String(word[word.index(after: equals)...])]
    }
    var options = BenchOptions()
    var index = 0
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
      case "--connections": options.connections = try integer(argument, 1...1000)
      case "--pipeline": options.pipeline = try integer(argument, 1...1024)
      case "--duration": options.duration = try seconds(argument, 0.1...600)
      case "--case": options.benchCase = try choice(argument)
      case "--warmup": options.warmup = try seconds(argument, 0...60)
      default: throw BenchError("unknown option '\(argument)'; try --help")
      }
      index += 1
    }
    return options
  }
}

import Foundation

/// `stockroom-bench linearizable --initial N FILE`: checks a recorded history of one stock level
/// (JSON lines, `HistoryReader`; FILE `-` for standard input) with `LinearizabilityChecker`.
/// Exits 0 when it is linearizable, 1 with the witness on standard output when not, 64 on a
/// bad command line or a bad line of the history (named), 66 when FILE cannot be read.
enum LinearizableCommand {
  static let usage = """
    usage: stockroom-bench linearizable --initial N FILE
      Checks that a history of one stock level is linearizable: one order of its operations,
      keeping real time (an operation answered before another was sent comes first), in which
      a counter starting at N allows each. FILE (- for standard input) holds one JSON object a
      line: {"op":"order"|"read","value":V,"start":T,"end":T}, V the level an order left (it
      took 1, or "quantity") or a read saw, T integers of one monotonic clock; "client" (a
      string) is shown in the witness. Exits 0 if linearizable, 1 with a witness if not, 64 on
      bad input.
    """

  struct Options {
    var initial: Int
    var file: String
  }

  static func run(arguments: [String]) -> Never {
    let options = CommandLineExit.parsedOrExit(
      usage: usage, parse: { try parse(arguments) },
      complaint: { "stockroom-bench linearizable: \($0)\n\(usage)" })
    let data: Data?
    if options.file == "-" {
      data = FileHandle.standardInput.readDataToEndOfFile()
    } else {
      data = FileManager.default.contents(atPath: options.file)
    }
    guard let data else {
      CommandLineExit.warn("stockroom-bench linearizable: cannot read \(options.file)")
      exit(66)
    }
    let operations: [HistoryOperation]
    do {
      operations = try HistoryReader.operations(in: String(decoding: data, as: UTF8.self))
    } catch {
      CommandLineExit.warn("stockroom-bench linearizable: \(options.file == "-" ? "stdin" : options.file): \(error)")
      exit(64)
    }
    let verdict = LinearizabilityChecker(initial: options.initial, operations: operations).check()
    if let witness = verdict.witness {
      print(witness)
      exit(1)
    }
    let orders = operations.filter { $0.kind == .order }.count
    print("linearizable: \(operations.count) operations (\(orders) orders, \(operations.count - orders) reads)")
    exit(0)
  }

  /// The options, or nil for --help.
  static func parse(_ arguments: [String]) throws -> Options? {
    var initial: Int?
    var files: [String] = []
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      switch argument {
      case "--help", "-h": return nil
      case "--initial":
        guard let word = rest.popFirst(), let value = Int(word) else {
          throw BenchError("--initial needs an integer")
        }
        initial = value
      case let word where word.hasPrefix("-") && word != "-":
        throw BenchError("unknown option \(word)")
      default: files.append(argument)
      }
    }
    guard let initial else { throw BenchError("--initial N is required") }
    guard files.count == 1 else { throw BenchError("give exactly one FILE (- for standard input)") }
    return Options(initial: initial, file: files[0])
  }
}

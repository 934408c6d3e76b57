import Foundation
import Testing

/// `stockroom-bench linearizable` run as a process on history files: 0 and a summary for a
/// linearizable history, 1 and the witness for issue 43's history, 64 and the line for bad input.
@Suite("stockroom-bench linearizable as a process", .timeLimit(.minutes(30)))
struct LinearizableCommandTests {
  /// `lines` written to a new file, and the checker's status and output on it.
  static func check(_ lines: [String], _ arguments: [String] = ["--initial", "10"], stdin: Bool = false) throws -> (
    status: Int32, out: String, err: String
  ) {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("history-\(UUID().uuidString).jsonl")
    try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    if stdin {
      return try CompareCommandTests.run(arguments + ["-"], subcommand: "linearizable", stdin: file.path)
    }
    return try CompareCommandTests.run(arguments + [file.path], subcommand: "linearizable")
  }

  static let counterexample = [
    #"{"op":"order","value":8,"start":0,"end":10,"client":"X"}"#,
    #"{"op":"read","value":8,"start":1,"end":2,"client":"R"}"#,
    #"{"op":"order","value":9,"start":3,"end":4,"client":"O"}"#,
  ]

  @Test("a linearizable history: exit 0 and how many operations")
  func linearizable() throws {
    let lines = [
      #"{"op":"order","value":9,"start":0,"end":10}"#, #"{"op":"read","value":9,"start":1,"end":2}"#, "",
      #"{"op":"order","value":7,"start":11,"end":12,"quantity":2}"#,
    ]
    let result = try Self.check(lines)
    #expect(result.status == 0, "\(result)")
    #expect(result.out.contains("linearizable: 3 operations (2 orders, 1 reads)"), "\(result)")
  }

  @Test("issue 43's history: exit 1 and a witness naming the operations that cannot be ordered")
  func notLinearizable() throws {
    for stdin in [false, true] {
      let result = try Self.check(Self.counterexample, stdin: stdin)
      #expect(result.status == 1, "\(result)")
      #expect(result.out.contains("not linearizable: at most 0 of 3 operations"), "\(result)")
      #expect(result.out.contains("line 1: order -> 8 by X, from 0 to 10: it needs the level at 9"), "\(result)")
      #expect(result.out.contains("line 2: read 8 by R, from 1 to 2: it needs 8"), "\(result)")
      #expect(result.out.contains("after line 2 was answered (at 2)"), "\(result)")
    }
  }

  @Test(
    "bad input: exit 64 and the line named",
    arguments: [
      (#"{"op":"sell","value":8,"start":0,"end":1}"#, "line 2: \"op\" must be"),
      (#"{"op":"read","value":8.5,"start":0,"end":1}"#, "line 2: \"value\" must be an integer"),
      (#"{"op":"read","value":8,"start":3,"end":1}"#, "line 2: \"start\" (3) is after \"end\" (1)"),
      (#"{"op":"read","value":8,"start":0}"#, "line 2: \"end\" is missing"),
      (#"{"op":"read","value":8,"start":0,"end":1,"quantity":1}"#, "line 2: a read has no \"quantity\""),
      (#"{"op":"read","value":8,"start":0,"end":1,"qty":1}"#, "line 2: unknown key \"qty\""),
      (#"{"op":"read","value":true,"start":0,"end":1}"#, "line 2: \"value\" must be an integer"),
      ("order 8 0 1", "line 2: not a JSON object"),
    ])
  func badLine(line: String, message: String) throws {
    let result = try Self.check([Self.counterexample[0], line])
    #expect(result.status == 64, "\(result)")
    #expect(result.err.contains(message), "\(result)")
    #expect(result.out.isEmpty, "\(result)")
  }

  @Test("a bad command line: exit 64 and the usage", arguments: [[], ["--initial"], ["--initial", "x"], ["--fast"]])
  func badCommandLine(arguments: [String]) throws {
    let result = try Self.check(Self.counterexample, arguments)
    #expect(result.status == 64, "\(result)")
    #expect(result.err.contains("usage: stockroom-bench linearizable --initial N FILE"), "\(result)")
  }
}

import Foundation
import StockroomTestSupport

/// The real `nc` (netcat-openbsd), fed a script on stdin as a shell pipeline would feed it.
enum Netcat {
  /// Runs `nc FLAGS 127.0.0.1 PORT` with `input` on stdin and returns what it printed; `timeout`
  /// stops an nc that would otherwise wait for ever.
  ///
  /// Started with a clean signal mask (`-q` waits on an alarm that Foundation's Process would
  /// leave blocked), and fed through files rather than pipes: a server another test spawns at
  /// the same moment could inherit a pipe's write end and keep it open after nc has finished.
  static func run(_ flags: [String], port: UInt16, input: String, timeout: Int = 15) throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nc-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let inputFile = directory.appendingPathComponent("in").path
    let outputFile = directory.appendingPathComponent("out").path
    try Data(input.utf8).write(to: URL(fileURLWithPath: inputFile))
    _ = try Subprocess.run(
      "/usr/bin/timeout", [String(timeout), "nc"] + flags + ["127.0.0.1", String(port)],
      environment: ["PATH": "/usr/bin:/bin"], stdin: inputFile, stdout: outputFile)
    return String(decoding: try Data(contentsOf: URL(fileURLWithPath: outputFile)), as: UTF8.self)
  }
}

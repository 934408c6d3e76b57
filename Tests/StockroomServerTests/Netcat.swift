import Foundation
import StockroomTestSupport

/// The real `nc` (netcat-openbsd), fed a script on stdin as a shell pipeline would feed it.
enum Netcat {
  /// Runs `nc FLAGS 127.0.0.1 PORT` with `input` on stdin and returns what it printed; throws
  /// unless nc exits 0. `timeout` stops an nc that would otherwise wait for ever.
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
    let errorFile = directory.appendingPathComponent("err").path
    let status = try Subprocess.run(
      "/usr/bin/timeout", [String(timeout), "nc"] + flags + ["127.0.0.1", String(port)],
      environment: ["PATH": "/usr/bin:/bin"], stdin: inputFile, stdout: outputFile, stderr: errorFile)
    let printed = String(decoding: try Data(contentsOf: URL(fileURLWithPath: outputFile)), as: UTF8.self)
    // nc that could not connect, or that timeout had to stop (124), did not run the session a
    // shell pipeline would: what it printed proves nothing.
    guard status == 0 else {
      let said = (try? String(contentsOfFile: errorFile, encoding: .utf8)) ?? ""
      throw LineClient.Failure(description: "nc \(flags.joined(separator: " ")) exited \(status): \(said)\n\(printed)")
    }
    return printed
  }
}

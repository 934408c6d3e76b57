import Foundation
import StockroomFixtures
import StockroomSystem

/// A tmux server of a test's own: its own socket in its own folder, so tests in parallel never
/// meet, and commands run with a clean signal mask (see `Subprocess`).
public final class Tmux: Sendable {
  public let socket: String
  /// Where the socket and the commands' output live; removed by `stop`.
  public let folder: URL

  public init(name: String) throws {
    socket = "\(name)-\(UUID().uuidString.prefix(8))"
    folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-tmux-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  /// Runs `tmux ARGUMENTS` against this server and returns what it printed.
  @discardableResult
  public func run(_ arguments: [String]) throws -> String {
    // Output goes to a file: the first command forks the tmux server, which would hold a pipe
    // open for as long as it lives.
    let output = folder.appendingPathComponent("tmux-output-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: output) }
    let status = try Subprocess.run(
      "/usr/bin/tmux", ["-u", "-L", socket] + arguments,
      environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TMUX_TMPDIR": folder.path], stdout: output)
    guard status == 0 || arguments.first == "kill-server" else {
      throw Subprocess.Failure(description: "tmux \(arguments.first ?? "") exited \(status)")
    }
    return (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
  }

  /// The visible screen of the one pane.
  public func screen() throws -> String {
    try run(["capture-pane", "-p"])
  }

  public func stop() {
    _ = try? run(["kill-server"])
    try? FileManager.default.removeItem(at: folder)
  }

  public static func shellQuote(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}

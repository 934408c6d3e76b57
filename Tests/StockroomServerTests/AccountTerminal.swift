import Foundation
import StockroomTestSupport

/// `stockroomd user` in a real terminal: a tmux server of its own, keys typed with send-keys,
/// the screen read with capture-pane, so that what a person would see (or not see) is checked.
final class AccountTerminal {
  struct Timeout: Error, CustomStringConvertible {
    var description: String
  }

  private let socket = "stockroom-user-\(UUID().uuidString.prefix(8))"
  private let folder: URL

  init() throws {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-user-tmux-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  /// Runs `stockroomd ARGUMENTS` in the shell of a new window. Afterwards the shell shows the
  /// exit status and whether the terminal echoes (`stty` prints `echo` or `-echo`); a Ctrl-C is
  /// trapped by the shell, so it kills only the command and the lines after it still run.
  func start(_ arguments: [String]) throws {
    let command = ([DaemonProcess.binary.path] + arguments).map(shellQuote).joined(separator: " ")
    let script =
      "trap : INT; \(command); echo \"[exited $?]\"; stty -a | tr ' ;' '\\n\\n' | grep -x -e echo -e -echo; "
      + "echo '[done]'; sleep 60"
    try tmux(["-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "20", "/bin/sh", "-c", script])
  }

  /// Types `text` literally, then Enter.
  func typeLine(_ text: String) throws {
    try tmux(["send-keys", "-l", text])
    try tmux(["send-keys", "Enter"])
  }

  func interrupt() throws {
    try tmux(["send-keys", "C-c"])
  }

  /// The screen once it shows `text`; throws with the last screen after 20 s.
  @discardableResult
  func waitFor(_ text: String) throws -> String {
    let deadline = Date().addingTimeInterval(20)
    while true {
      let screen = try tmux(["capture-pane", "-p"])
      if screen.contains(text) { return screen }
      guard Date() < deadline else { throw Timeout(description: "no '\(text)' on screen:\n\(screen)") }
      usleep(50_000)
    }
  }

  func stop() {
    _ = try? tmux(["kill-server"])
    try? FileManager.default.removeItem(at: folder)
  }

  @discardableResult
  private func tmux(_ arguments: [String]) throws -> String {
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

  private func shellQuote(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}

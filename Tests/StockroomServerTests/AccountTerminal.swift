import Foundation
import StockroomTestSupport

/// `stockroomd user` in a real terminal: a tmux server of its own, keys typed with send-keys,
/// the screen read with capture-pane, so that what a person would see (or not see) is checked.
final class AccountTerminal {
  struct Timeout: Error, CustomStringConvertible {
    var description: String
  }

  private let tmux: Tmux

  init() throws {
    tmux = try Tmux(name: "stockroom-user")
  }

  /// Runs `stockroomd ARGUMENTS` in the shell of a new window. Afterwards the shell shows the
  /// exit status and whether the terminal echoes (`stty` prints `echo` or `-echo`); a Ctrl-C is
  /// trapped by the shell, so it kills only the command and the lines after it still run.
  func start(_ arguments: [String]) throws {
    let command = ([DaemonProcess.binary.path] + arguments).map(Tmux.shellQuote).joined(separator: " ")
    let script =
      "trap : INT; \(command); echo \"[exited $?]\"; stty -a | tr ' ;' '\\n\\n' | grep -x -e echo -e -echo; "
      + "echo '[done]'; sleep 60"
    try tmux.run(["-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "20", "/bin/sh", "-c", script])
  }

  /// Types `text` literally, then Enter.
  func typeLine(_ text: String) throws {
    try tmux.run(["send-keys", "-l", text])
    try tmux.run(["send-keys", "Enter"])
  }

  func interrupt() throws {
    try tmux.run(["send-keys", "C-c"])
  }

  /// The screen once it shows `text`; throws with the last screen after 20 s.
  @discardableResult
  func waitFor(_ text: String) throws -> String {
    let deadline = Date().addingTimeInterval(20)
    while true {
      let screen = try tmux.run(["capture-pane", "-p"])
      if screen.contains(text) { return screen }
      guard Date() < deadline else { throw Timeout(description: "no '\(text)' on screen:\n\(screen)") }
      usleep(50_000)
    }
  }

  func stop() {
    tmux.stop()
  }

}

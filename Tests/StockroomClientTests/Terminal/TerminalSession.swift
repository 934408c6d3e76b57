import Foundation
import StockroomTestSupport

/// `stockroom` in a real terminal: a tmux server of its own (own socket, fixed size), keys
/// typed with send-keys, the screen read with capture-pane.
final class TerminalSession {
  struct Timeout: Error, CustomStringConvertible {
    var description: String
  }

  private let tmux: Tmux
  var folder: URL { tmux.folder }
  let historyFile: String
  /// Text typed that must never be printed: a failed wait shows the screen with these blanked.
  var secrets: [String] = []

  /// `historyFile` lets two sessions in a row share one history.
  init(historyFile: String? = nil) throws {
    tmux = try Tmux(name: "stockroom-test")
    self.historyFile = historyFile ?? tmux.folder.appendingPathComponent("history").path
  }

  /// Starts `stockroom` with these arguments in a 120x40 window (or `width` columns, `rows`
  /// lines); the pane stays after it exits so its last screen, and the status line the shell
  /// adds, can still be read. `afterwards` is a shell command run in the same terminal once it
  /// has exited. `stdout` sends the program's output to a file.
  func start(
    _ arguments: [String], environment: [String: String] = [:], afterwards: String? = nil, width: Int = 120,
    rows: Int = 40, stdout: String? = nil
  ) throws {
    let command =
      try commandLine(arguments, environment: environment) + (stdout.map { " > " + Tmux.shellQuote($0) } ?? "")
    // The shell reports the exit status itself: tmux notices a dead pane only once it has
    // reaped the child, which under load can take longer than any deadline here.
    let reported =
      command + "; echo \"[stockroom exited with status $?]\"" + (afterwards.map { "; " + $0 } ?? "")
    // remain-on-exit is set in the same tmux call, before the session: set afterwards, it
    // failed when a quick command (`--version`, a one-shot HELP) had ended and taken the
    // tmux server with it first.
    try tmux.run([
      "-f", "/dev/null", "start-server", ";", "set-option", "-g", "remain-on-exit", "on", ";", "new-session", "-d",
      "-x", "\(width)", "-y", "\(rows)", reported,
    ])
  }

  /// The shell command that runs `stockroom` with `arguments` in a clean environment: UTF-8,
  /// a known TERM, HOME this session's folder and its own history file, then `environment`.
  /// Tests that type the command into a shell of their own use it too.
  func commandLine(_ arguments: [String], environment: [String: String] = [:]) throws -> String {
    var env = [
      "LANG": "C.UTF-8", "TERM": "xterm-256color", "HOME": folder.path,
      "STOCKROOM_HISTFILE": historyFile,
    ]
    env.merge(environment) { $1 }
    let assignments = env.sorted { $0.key < $1.key }.map { "\($0.key)=\(Tmux.shellQuote($0.value))" }
    return "env -i PATH=/usr/bin:/bin " + assignments.joined(separator: " ") + " "
      + ([try ClientProcess.binary()] + arguments).map(Tmux.shellQuote).joined(separator: " ")
  }

  func send(_ keys: String...) throws {
    try tmux.run(["send-keys"] + keys)
  }

  /// Sends a signal to `stockroom` itself, as `kill` from another terminal would: the pane's
  /// shell runs it as its only child.
  func signalProgram(_ signal: Int32) throws {
    let shell = try tmux.run(["display-message", "-p", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
    let children = try String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)
    guard let pid = children.split(separator: " ").first.flatMap({ pid_t($0) }) else {
      throw Timeout(description: "no program under the pane's shell \(shell)")
    }
    kill(pid, signal)
  }

  /// Types text literally (no key names), e.g. Korean.
  func type(_ text: String) throws {
    try tmux.run(["send-keys", "-l", text])
  }

  func screen() throws -> String {
    try tmux.run(["capture-pane", "-p"])
  }

  /// The screen with its colours and attributes as escape sequences (`\e[2m` for dim), as
  /// tmux holds them: a sequence stands only where the attributes change.
  func styledScreen() throws -> String {
    try tmux.run(["capture-pane", "-p", "-e"])
  }

  /// Polls the styled screen (`styledScreen`) as `waitFor` polls the text.
  @discardableResult
  func waitForStyled(_ what: String, timeout: Double = 20, _ condition: (String) -> Bool) throws -> String {
    try poll(what, timeout: timeout, read: styledScreen, condition)
  }

  /// Polls the styled screen with every attribute but dim taken out (`dimOnly`).
  @discardableResult
  func waitForDimmed(_ what: String, timeout: Double = 20, _ condition: (String) -> Bool) throws -> String {
    try poll(what, timeout: timeout, read: { Self.dimOnly(try styledScreen()) }, condition)
  }

  /// From now on, every byte the program writes to the terminal is added to `path` too, as
  /// tmux reads it from the pane (`pipe-pane`).
  func logOutput(to path: String) throws {
    try tmux.run(["pipe-pane", "-O", "cat >> " + Tmux.shellQuote(path)])
  }

  /// Polls the file `logOutput` writes until `condition` holds for its bytes. tmux hands them
  /// to the logging process as it reads them, so the file may lag the screen a little.
  @discardableResult
  func waitForLog(at path: String, _ what: String, timeout: Double = 20, _ condition: ([UInt8]) -> Bool) throws
    -> [UInt8]
  {
    var bytes: [UInt8] = []
    // A failed wait shows the log's end, escapes spelled out, rather than the screen.
    let read = { () -> String in
      bytes = FileManager.default.contents(atPath: path).map { [UInt8]($0) } ?? []
      return "the log's last bytes: " + String(decoding: bytes.suffix(300), as: UTF8.self).debugDescription
    }
    _ = try poll(what, timeout: timeout, read: read) { _ in condition(bytes) }
    return bytes
  }

  /// A styled screen with every SGR sequence but dim (`ESC [2m`) taken out, for a test of what
  /// is dimmed that the line's colours (`highlight`) would otherwise cut into.
  static func dimOnly(_ styled: String) -> String {
    styled.replacing(/\x1B\[[0-9;]*m/) { match in match.output == "\u{1B}[2m" ? "\u{1B}[2m" : "" }
  }

  /// The screen with the lines the terminal wrapped joined again, as the program wrote them.
  func joinedScreen() throws -> String {
    try tmux.run(["capture-pane", "-p", "-J"])
  }

  /// A tmux format read from the pane, e.g. `#{alternate_on}`.
  func pane(_ format: String) throws -> String {
    try tmux.run(["display-message", "-p", format]).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Resizes the window, as dragging the terminal's corner would; the program gets SIGWINCH.
  func resize(columns: Int, rows: Int) throws {
    try tmux.run(["resize-window", "-x", "\(columns)", "-y", "\(rows)"])
  }

  /// Polls the screen until `condition` holds; fails with the last screen after the deadline.
  ///
  /// The wait holds its thread instead of suspending: Swift Testing runs every test on a pool
  /// as wide as the machine has cores, and while other tests block that pool on sockets and
  /// processes a suspended wait resumes only after its deadline has passed, having seen the
  /// screen once, too early, if at all. The screen is always read once more at the deadline.
  @discardableResult
  func waitFor(
    _ what: String, timeout: Double = 20, _ condition: (String) -> Bool
  ) throws -> String {
    try poll(what, timeout: timeout, read: screen, condition)
  }

  private func poll(
    _ what: String, timeout: Double, read: () throws -> String, _ condition: (String) -> Bool
  ) throws -> String {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      let last = try read()
      if condition(last) { return last }
      guard Date() < deadline else {
        let shown = secrets.reduce(last) { $0.replacingOccurrences(of: $1, with: "<secret>") }
        throw Timeout(description: "timed out waiting for \(what); screen was:\n\(shown)")
      }
      usleep(50_000)
    }
  }

  @discardableResult
  func waitFor(text: String, timeout: Double = 20) throws -> String {
    try waitFor("'\(text)' on screen", timeout: timeout) { $0.contains(text) }
  }

  /// Waits for `text` and then an empty prompt below it. Keys sent before the prompt is back
  /// meet the terminal in cooked mode, where Ctrl-D and Tab do not reach the line editor.
  /// With `command`, `text` counts only below the line where that command was entered: for
  /// text already on screen from an earlier command, which would otherwise be found before the
  /// new command has even been echoed.
  @discardableResult
  func waitForPrompt(after text: String, from command: String? = nil, timeout: Double = 20) throws -> String {
    let what = command.map { "'\(text)' from '\($0)' and then a fresh prompt" } ?? "'\(text)' and then a fresh prompt"
    return try waitFor(what, timeout: timeout) { screen in
      let lines = Self.lines(screen)
      guard let last = lines.last, last.hasSuffix(">"),
        let index = lines.lastIndex(where: { $0.contains(text) })
      else { return false }
      guard let command else { return index < lines.count - 1 }
      guard let entered = lines.lastIndex(where: { Self.withoutHint($0)?.hasSuffix("> \(command)") == true })
      else { return false }
      return entered < index && index < lines.count - 1
    }
  }

  /// The screen's lines without trailing blank ones.
  static func lines(_ screen: String) -> [String] {
    var lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map {
      String($0.reversed().drop { $0 == " " }.reversed())
    }
    while lines.last?.isEmpty == true { lines.removeLast() }
    return lines
  }

  /// A prompt line without the argument hint drawn at its right, which a half-typed word has
  /// too: the hint stands three or more blanks after the text typed.
  static func withoutHint(_ line: String?) -> String? {
    guard let line, let gap = line.range(of: "   ") else { return line }
    return String(line[..<gap.lowerBound])
  }

  func stop() {
    tmux.stop()
  }

}

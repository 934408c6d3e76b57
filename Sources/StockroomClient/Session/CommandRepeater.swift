import CStockroomShims
import StockroomSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// `:watch SECONDS COMMAND`, as psql's `\watch`: the command again every SECONDS, its reply
/// drawn in place from the top of the screen under a line saying what and when, until Ctrl-C
/// or `q`, or until a reply is an error. Keys are read one at a time, without echo and with
/// Ctrl-C as a key, only while it runs; the terminal's settings are put back on every way out.
struct CommandRepeater {
  /// One round's reply as shown, and whether it was an error, which ends the repeating.
  struct Round {
    var text: String
    var failed: Bool
  }

  /// Shortest interval taken: faster would only load the server.
  static let minimumSeconds = 0.1

  var seconds: Double
  var command: String

  /// Runs until a key stops it, a round fails, or `reply` returns nil (the connection failed,
  /// said there). `reply` sends the command and returns the round.
  func run(reply: () -> Round?) {
    let input: Int32 = 0
    Self.withKeys(on: input) {
      while true {
        let started = MonotonicClock.seconds()
        guard let round = reply() else { return }
        // The title stays on the top line: a reply taller than the window is cut to fit under
        // it rather than scrolling it away.
        let title = header()
        let rows = Int(sr_terminal_rows(1))
        let columns = Int(sr_terminal_columns(1))
        let room = rows > 0 ? rows - Self.rowsTaken(by: title, columns: columns) - 2 : Int.max
        TerminalOutput.write(
          "\u{1B}[H\u{1B}[2J" + title + "\n\n" + Self.fitted(round.text, rows: room, columns: columns))
        if round.failed {
          TerminalOutput.write("stopped: the command failed\n")
          return
        }
        if stopKeyArrives(before: started + seconds, on: input) { return }
      }
    }
  }

  /// One key, `y` or `Y` for yes; anything else, Ctrl-C or the end of input is no.
  static func confirmed(input: Int32 = 0) -> Bool {
    var byte: UInt8 = 0
    withKeys(on: input) {
      while read(input, &byte, 1) < 0 && errno == EINTR {}
    }
    return byte == UInt8(ascii: "y") || byte == UInt8(ascii: "Y")
  }

  /// Runs `body` with the terminal giving keys one at a time, unechoed, Ctrl-C among them.
  private static func withKeys(on input: Int32, _ body: () -> Void) {
    var saved = termios()
    let isTerminal = tcgetattr(input, &saved) == 0
    if isTerminal {
      var raw = saved
      raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
      withUnsafeMutableBytes(of: &raw.c_cc) { cc in
        cc[Int(VMIN)] = 1
        cc[Int(VTIME)] = 0
      }
      _ = tcsetattr(input, TCSANOW, &raw)
    }
    defer { if isTerminal { _ = tcsetattr(input, TCSANOW, &saved) } }
    body()
  }

  /// `text` cut to `rows` terminal rows, its last one saying how many lines were left out.
  static func fitted(_ text: String, rows: Int, columns: Int) -> String {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    var used = 0
    var kept: [Substring] = []
    for (index, line) in lines.enumerated() {
      let taken = rowsTaken(by: String(line), columns: columns)
      let left = lines.count - index
      // The last row kept for the note, unless this is the last line and it fits.
      if used + taken > rows - (left > 1 ? 1 : 0) {
        return kept.map { $0 + "\n" }.joined() + "… \(left) more lines; a taller window shows them\n"
      }
      kept.append(line)
      used += taken
    }
    return text
  }

  private static func rowsTaken(by line: String, columns: Int) -> Int {
    guard columns > 0 else { return 1 }
    return max(1, (DisplayWidth.of(Pager.withoutEscapes(Substring(line))) + columns - 1) / columns)
  }

  private func header() -> String {
    var now = time(nil)
    var parts = tm()
    localtime_r(&now, &parts)
    let clock = [parts.tm_hour, parts.tm_min, parts.tm_sec].map { $0 < 10 ? "0\($0)" : "\($0)" }
    return "Every \(Self.format(seconds)) s: \(command)    \(clock.joined(separator: ":"))  (Ctrl-C or q stops)"
  }

  /// Waits until `due` on the monotonic clock; true when Ctrl-C, `q` or the end of input came.
  private func stopKeyArrives(before due: Double, on input: Int32) -> Bool {
    while true {
      let left = due - MonotonicClock.seconds()
      guard left > 0 else { return false }
      var ready = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
      let count = poll(&ready, 1, Int32((left * 1000).rounded(.up)))
      if count < 0 && errno == EINTR { continue }
      // Waiting itself failed: stop rather than spin.
      if count < 0 { return true }
      guard count > 0 else { continue }
      var byte: UInt8 = 0
      let got = read(input, &byte, 1)
      if got < 0 && errno == EINTR { continue }
      if got <= 0 || byte == 3 || byte == UInt8(ascii: "q") { return true }
    }
  }

  /// `2`, `0.5`: the interval as typed, without a trailing `.0`.
  static func format(_ seconds: Double) -> String {
    seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
  }
}

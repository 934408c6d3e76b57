import StockroomSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// `:watch SECONDS COMMAND`, as psql's `\watch`: the command again every SECONDS, its reply
/// drawn in place from the top of the screen under a line saying what and when, until Ctrl-C
/// or `q`. Keys are read one at a time, without echo and with Ctrl-C as a key, only while it
/// runs; the terminal's settings are put back on every way out.
struct CommandRepeater {
  /// Shortest interval taken: faster would only load the server.
  static let minimumSeconds = 0.1

  var seconds: Double
  var command: String

  /// Runs until a key stops it or `reply` returns nil (the connection failed, said there).
  /// `reply` sends the command and returns the text to show.
  func run(reply: () -> String?) {
    let input: Int32 = 0
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
    while true {
      let started = MonotonicClock.seconds()
      guard let text = reply() else { return }
      TerminalOutput.write("\u{1B}[H\u{1B}[2J" + header() + "\n\n" + text)
      if stopKeyArrives(before: started + seconds, on: input) { return }
    }
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

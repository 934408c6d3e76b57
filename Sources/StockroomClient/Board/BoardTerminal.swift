#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The terminal while the board owns it: the alternate screen, keys one at a time without
/// echo, no cursor, and output that never blocks. `restore` puts back exactly what it found.
///
/// A frame goes out through a non-blocking write. A slow terminal takes it in pieces; until it
/// has taken all of it no new frame is started, so the board never waits on the terminal and
/// the frame that does go out next is the newest state.
public final class BoardTerminal {
  private let input: Int32
  private let output: Int32
  private var savedMode: termios? = nil
  private var savedInputFlags: Int32 = -1
  private var savedOutputFlags: Int32 = -1
  private var pending: [UInt8] = []
  private var pendingStart = 0
  private var isActive = false

  /// Alternate screen on, cursor hidden, line wrap off (a line that fills the last column must
  /// not scroll the screen), and the screen cleared.
  static let enter = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?7l\u{1B}[H\u{1B}[2J"
  /// Line wrap and cursor back, and the main screen as it was.
  static let leave = "\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l"
  /// How long entering or leaving may wait for a terminal that is slow to read.
  static let leavingLimitMilliseconds: Int32 = 2000

  public init(input: Int32 = 0, output: Int32 = 1) {
    self.input = input
    self.output = output
  }

  deinit { restore() }

  /// Keys are read only when the input is a terminal; the board still runs without them.
  public var readsKeys: Bool { isatty(input) == 1 }

  public func start() {
    guard !isActive else { return }
    isActive = true
    if readsKeys {
      var mode = termios()
      if tcgetattr(input, &mode) == 0 {
        savedMode = mode
        // Bytes as they are typed, no echo, and Ctrl-C as a key: the board quits on it
        // through its own path, which restores the screen.
        mode.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
        mode.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &mode.c_cc) { cc in
          cc[Int(VMIN)] = 1
          cc[Int(VTIME)] = 0
        }
        _ = tcsetattr(input, TCSAFLUSH, &mode)
      }
    }
    savedInputFlags = fcntl(input, F_GETFL)
    savedOutputFlags = fcntl(output, F_GETFL)
    if savedOutputFlags >= 0 { _ = fcntl(output, F_SETFL, savedOutputFlags | O_NONBLOCK) }
    write(Self.enter, waitingAtMost: Self.leavingLimitMilliseconds)
  }

  /// Idempotent, and safe at any point after `start`: every way out of the board comes here.
  public func restore() {
    guard isActive else { return }
    isActive = false
    // The rest of a frame first, so no escape sequence is left cut in half, then the way
    // back; each waits a little for a slow terminal but not forever for a stuck one, while
    // the output is still non-blocking.
    if isBusy {
      let rest = String(decoding: pending[pendingStart...], as: UTF8.self)
      write(rest, waitingAtMost: Self.leavingLimitMilliseconds)
    }
    pending.removeAll()
    pendingStart = 0
    write("\u{1B}[0m" + Self.leave, waitingAtMost: Self.leavingLimitMilliseconds)
    // Stdin and stdout are often one open file: both get their flags back.
    if savedOutputFlags >= 0 { _ = fcntl(output, F_SETFL, savedOutputFlags) }
    if savedInputFlags >= 0 { _ = fcntl(input, F_SETFL, savedInputFlags) }
    if var mode = savedMode { _ = tcsetattr(input, TCSANOW, &mode) }
    savedMode = nil
  }

  /// Window size in cells; 80x24 when the terminal does not say.
  public var size: (columns: Int, rows: Int) {
    var size = winsize()
    guard ioctl(output, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return (80, 24) }
    return (Int(size.ws_col), Int(size.ws_row))
  }

  /// True while part of the last frame is still waiting for the terminal.
  public var isBusy: Bool { pendingStart < pending.count }

  /// Starts writing a whole frame: every line from the top, each on a cleared line, and the
  /// rest of the screen cleared below. Refused (false) while the previous frame is not out.
  @discardableResult
  public func draw(_ lines: [String]) -> Bool {
    guard isActive, !isBusy else { return false }
    var frame = "\u{1B}[H"
    for (index, line) in lines.enumerated() {
      // Cleared before, not after: with line wrap off the cursor stays on a full line's last
      // cell, and clearing to the end of the line from there would erase that cell.
      frame += "\u{1B}[\(index + 1);1H\u{1B}[2K" + line + "\u{1B}[0m"
    }
    // Below a frame that fills the window there is no row to clear: the cursor would stop
    // on the last row and the clear would erase the frame's own last line.
    if lines.count < size.rows { frame += "\u{1B}[\(lines.count + 1);1H\u{1B}[J" }
    pending = Array(frame.utf8)
    pendingStart = 0
    flush()
    return true
  }

  /// Writes what the terminal takes now without waiting.
  public func flush() {
    while pendingStart < pending.count {
      let written = pending.withUnsafeBytes { raw in
        Glibc.write(output, raw.baseAddress! + pendingStart, raw.count - pendingStart)
      }
      if written > 0 {
        pendingStart += written
        continue
      }
      if written < 0 && errno == EINTR { continue }
      return
    }
    pending.removeAll(keepingCapacity: true)
    pendingStart = 0
  }

  /// Reads the keys waiting on the input, without blocking.
  public func readKeys() -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: 64)
    let count = bytes.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
    return count > 0 ? Array(bytes[..<count]) : []
  }

  /// Writes all of `text`, waiting for a slow terminal at most `limit` ms in all: only for
  /// entering and leaving, which must not be lost to a slow terminal nor hang on a stuck one.
  private func write(_ text: String, waitingAtMost limit: Int32) {
    let bytes = Array(text.utf8)
    var offset = 0
    var waited: Int32 = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { raw in Glibc.write(output, raw.baseAddress! + offset, raw.count - offset) }
      if written > 0 {
        offset += written
      } else if written < 0 && errno == EINTR {
        continue
      } else if written < 0 && errno == EAGAIN && waited < limit {
        var entry = pollfd(fd: output, events: Int16(POLLOUT), revents: 0)
        _ = poll(&entry, 1, 50)
        waited += 50
      } else {
        return
      }
    }
  }
}

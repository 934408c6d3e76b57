#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The terminal settings to put back if a signal ends the process while echo is off; set only
/// while the prompt waits.
private nonisolated(unsafe) var echoingSettings: (fd: Int32, settings: termios)? = nil

/// Puts echo back, then dies of the signal as it would have without this handler.
private func restoreTerminalAndDie(_ signal: Int32) {
  if var saved = echoingSettings { _ = tcsetattr(saved.fd, TCSANOW, &saved.settings) }
  _ = Glibc.signal(signal, SIG_DFL)
  _ = raise(signal)
}

/// Asks for a secret (a password) on the controlling terminal with echo off, as getpass(3)
/// did; the REPL's login and `stockroomd user` both ask through it.
///
/// The terminal goes non-canonical with keyboard signals off, so Ctrl-C and Ctrl-D arrive as
/// bytes and end the prompt here; signals sent from outside (kill, a hang-up) are caught long
/// enough to put echo back. The saved settings are restored on every way out. /dev/tty rather
/// than stdin, so the answer never mixes with piped input.
public enum TerminalPrompt {
  /// Why nothing was read.
  public enum Failure: Error, Sendable, Equatable {
    /// No terminal to ask on, or it would not turn echo off.
    case noTerminal(reason: String)
    /// Ctrl-D on nothing typed, or the terminal went away.
    case cancelled
    /// Ctrl-C.
    case interrupted
  }

  /// The signals that would otherwise end the process with echo still off.
  private static let fatalSignals = [SIGTERM, SIGHUP, SIGINT, SIGQUIT]

  /// Shows `prompt` and hands what is typed up to Enter to `take`; the bytes are wiped after.
  public static func read<Value>(
    prompt: String, _ take: (UnsafeRawBufferPointer) -> Value
  ) throws(Failure) -> Value {
    let fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard fd >= 0 else { throw .noTerminal(reason: "/dev/tty: \(Errno.current)") }
    defer { close(fd) }
    var saved = termios()
    guard tcgetattr(fd, &saved) == 0 else {
      throw .noTerminal(reason: "/dev/tty: \(Errno.current)")
    }
    var quiet = saved
    quiet.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | ISIG | IEXTEN)
    withUnsafeMutableBytes(of: &quiet.c_cc) { cc in
      cc[Int(VMIN)] = 1
      cc[Int(VTIME)] = 0
    }
    let keys = withUnsafeBytes(of: saved.c_cc) { cc in
      (interrupt: cc[Int(VINTR)], end: cc[Int(VEOF)], erase: cc[Int(VERASE)], kill: cc[Int(VKILL)])
    }
    echoingSettings = (fd, saved)
    let previous = fatalSignals.map { signal($0, restoreTerminalAndDie) }
    defer {
      // Signals that were ignored (nohup) stay ignored; the others get their old handlers back.
      for (number, handler) in zip(fatalSignals, previous) { _ = signal(number, handler) }
      echoingSettings = nil
    }
    for (number, handler) in zip(fatalSignals, previous) where isIgnored(handler) {
      _ = signal(number, SIG_IGN)
    }
    // Echo goes off before the prompt shows, so nothing typed after seeing it is echoed;
    // TCSAFLUSH drops keys typed earlier, which were echoed and so are no secret.
    guard tcsetattr(fd, TCSAFLUSH, &quiet) == 0 else {
      throw .noTerminal(reason: "cannot turn echo off: \(Errno.current)")
    }
    defer {
      _ = tcsetattr(fd, TCSADRAIN, &saved)
      // Enter was not echoed either; end the prompt's line.
      write("\n", to: fd)
    }
    write(prompt, to: fd)
    var typed: [UInt8] = []
    defer { for index in typed.indices { typed[index] = 0 } }
    while true {
      var byte: UInt8 = 0
      let count = Glibc.read(fd, &byte, 1)
      if count < 0 && errno == EINTR { continue }
      guard count == 1 else { throw .cancelled }
      switch byte {
      case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
        return typed.withUnsafeBytes(take)
      case keys.interrupt:
        write("^C", to: fd)
        throw .interrupted
      case keys.end:
        // As at a shell prompt: Ctrl-D on nothing typed ends, on something it is ignored.
        if typed.isEmpty { throw .cancelled }
      case keys.erase, 0x08, 0x7F:
        // One character, not one byte: drop UTF-8 continuation bytes with their lead byte.
        while let last = typed.popLast(), last & 0xC0 == 0x80 {}
      case keys.kill:
        typed.removeAll()
      case 0..<0x20:
        // Other control keys (Ctrl-Z among them, with signals off) are not part of a password.
        break
      default:
        typed.append(byte)
      }
    }
  }

  private static func isIgnored(_ handler: __sighandler_t?) -> Bool {
    unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
  }

  private static func write(_ text: String, to fd: Int32) {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
      if written < 0 && errno == EINTR { continue }
      if written <= 0 { return }
      offset += written
    }
  }
}

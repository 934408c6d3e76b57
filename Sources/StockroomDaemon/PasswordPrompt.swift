import StockroomSecurity

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Reads a password for `stockroomd user`: from the terminal with echo off when standard input
/// is one, otherwise as the first line of standard input, so scripts can pipe it. Never from the
/// command line, where `ps` and shell history would show it to others.
package enum PasswordPrompt {
  /// The terminal's settings while echo is off, for the signal handler to put back: a Ctrl-C at
  /// the prompt must not leave the user's shell typing blind. Written only before the handlers
  /// are installed and read only by them.
  nonisolated(unsafe) private static var saved = termios()
  nonisolated(unsafe) private static var terminal: Int32 = -1
  private static let signals = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

  /// Asks for the password of `name`, twice when `confirm` and both times on a terminal, and
  /// refuses when the two differ.
  package static func read(for name: String, confirm: Bool) throws(AccountCommandError) -> Password {
    guard isatty(0) == 1 else {
      return try line(from: 0, source: "standard input")
    }
    let descriptor = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw AccountCommandError(
        "cannot open the terminal to ask for the password (\(String(cString: strerror(errno)))); give it as the "
          + "first line of standard input instead")
    }
    defer { close(descriptor) }
    let password = try withEchoOff(descriptor) { () throws(AccountCommandError) in
      try ask(descriptor, "password for \(name): ")
    }
    guard confirm else { return password }
    let again = try withEchoOff(descriptor) { () throws(AccountCommandError) in try ask(descriptor, "again: ") }
    guard password.matches(again) else {
      throw AccountCommandError("the two passwords differ; nothing was changed, run the command again")
    }
    return password
  }

  private static func ask(_ descriptor: Int32, _ prompt: String) throws(AccountCommandError) -> Password {
    write(descriptor, prompt)
    return try line(from: descriptor, source: "the terminal")
  }

  /// Runs `body` with the terminal's echo off (ECHONL on, so the Enter still moves to a new
  /// line), and puts the terminal's settings back afterwards, on an error, and on a signal.
  private static func withEchoOff(
    _ descriptor: Int32, _ body: () throws(AccountCommandError) -> Password
  ) throws(AccountCommandError) -> Password {
    var settings = termios()
    guard tcgetattr(descriptor, &settings) == 0 else {
      throw AccountCommandError(
        "cannot turn off the terminal's echo to ask for the password (\(String(cString: strerror(errno)))); give "
          + "it as the first line of standard input instead")
    }
    saved = settings
    terminal = descriptor
    let previous = signals.map { number in
      signal(number) { number in
        _ = tcsetattr(PasswordPrompt.terminal, TCSANOW, &PasswordPrompt.saved)
        _ = Glibc.write(PasswordPrompt.terminal, "\n", 1)
        signal(number, SIG_DFL)
        raise(number)
      }
    }
    defer {
      _ = tcsetattr(descriptor, TCSANOW, &saved)
      for (number, handler) in zip(signals, previous) { signal(number, handler) }
    }
    settings.c_lflag &= ~tcflag_t(ECHO)
    settings.c_lflag |= tcflag_t(ECHONL)
    guard tcsetattr(descriptor, TCSAFLUSH, &settings) == 0 else {
      throw AccountCommandError(
        "cannot turn off the terminal's echo to ask for the password (\(String(cString: strerror(errno)))); give "
          + "it as the first line of standard input instead")
    }
    return try body()
  }

  /// One line from `descriptor`, without its newline, read a byte at a time so that nothing past
  /// it is consumed. Bytes past the longest password allowed are read and dropped, and the
  /// password keeps one too many, so the rules refuse it as too long.
  private static func line(from descriptor: Int32, source: String) throws(AccountCommandError) -> Password {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Password.maximumBytes + 1, alignment: 1)
    defer {
      explicit_bzero(buffer.baseAddress!, buffer.count)
      buffer.deallocate()
    }
    var count = 0
    var readAny = false
    var byte: UInt8 = 0
    while true {
      let got = Glibc.read(descriptor, &byte, 1)
      if got < 0 && errno == EINTR { continue }
      guard got >= 0 else {
        throw AccountCommandError("cannot read the password from \(source): \(String(cString: strerror(errno)))")
      }
      if got == 0 { break }
      readAny = true
      if byte == UInt8(ascii: "\n") { break }
      if count < buffer.count {
        buffer[count] = byte
        count += 1
      }
    }
    byte = 0
    guard readAny else {
      throw AccountCommandError(
        descriptor == 0
          ? "standard input is empty: give the password as its first line, or run the command in a terminal to be asked"
          : "no password was typed; nothing was changed")
    }
    return Password(copying: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
  }

  private static func write(_ descriptor: Int32, _ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
  }
}

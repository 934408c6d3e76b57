import StockroomSecurity
import StockroomSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Reads a password for `stockroomd user`: from the terminal with echo off when standard input
/// is one, otherwise as the first line of standard input, so scripts can pipe it. Never from the
/// command line, where `ps` and shell history would show it to others.
package enum PasswordPrompt {
  /// Asks for the password of `name`, twice when `confirm` and both times on a terminal, and
  /// refuses when the two differ.
  package static func read(for name: String, confirm: Bool) throws(AccountCommandError) -> Password {
    guard isatty(0) == 1 else {
      return try line(from: 0, source: "standard input")
    }
    let password = try ask("password for \(name): ")
    guard confirm else { return password }
    guard password.matches(try ask("again: ")) else {
      throw AccountCommandError("the two passwords differ; nothing was changed, run the command again")
    }
    return password
  }

  /// One password from the terminal, through the prompt the REPL uses too. Ctrl-C ends the
  /// command as it would have without the prompt, with the shell's 130, the terminal put back.
  private static func ask(_ prompt: String) throws(AccountCommandError) -> Password {
    do {
      return try TerminalPrompt.read(prompt: prompt) { Password(copying: $0) }
    } catch {
      switch error {
      case .noTerminal(let reason):
        throw AccountCommandError(
          "cannot ask for the password on the terminal (\(reason)); give it as the first line of standard input "
            + "instead")
      case .cancelled: throw AccountCommandError("no password was typed; nothing was changed")
      case .interrupted: exit(130)
      }
    }
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
}

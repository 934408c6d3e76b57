import StockroomSystem

/// The REPL's password prompt: StockroomSystem's `TerminalPrompt` (echo off, Ctrl-C and
/// Ctrl-D as keys, the terminal put back on every way out), answering in the client's words.
public enum PasswordPrompt {
  public static func read(prompt: String) throws(PasswordError) -> Secret {
    do {
      return try TerminalPrompt.read(prompt: prompt) { Secret(String(decoding: $0, as: UTF8.self)) }
    } catch {
      switch error {
      case .noTerminal(let reason): throw .noTerminal(reason: reason)
      case .cancelled: throw .cancelled
      case .interrupted: throw .interrupted
      }
    }
  }
}

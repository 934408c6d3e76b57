/// Why no password could be had for `-u NAME`, as a sentence that says how to give one.
public enum PasswordError: Error, Equatable, CustomStringConvertible, Sendable {
  /// No file, no environment variable and no terminal to ask on.
  case none(user: String)
  case unreadable(path: String, reason: String)
  /// Group or others may read or write the file; like .pgpass, it is refused rather than used.
  case exposed(path: String, mode: UInt32)
  case empty(path: String)
  /// Ctrl-D, end of input or Enter on nothing at the prompt.
  case cancelled
  /// Ctrl-C at the prompt.
  case interrupted
  case noTerminal(reason: String)

  public var description: String {
    switch self {
    case .none(let user):
      "-u \(user) needs a password: give --password-file FILE, or set STOCKROOM_PASSWORD, "
        + "or run stockroom from a terminal to be asked for it"
    case .unreadable(let path, let reason): "cannot read the password file \(path): \(reason)"
    case .exposed(let path, let mode):
      "the password file \(path) can be read or written by others (mode \(String(mode, radix: 8))); "
        + "chmod 600 it"
    case .empty(let path): "the password file \(path) has no password on its first line"
    case .cancelled: "no password given"
    case .interrupted: "interrupted"
    case .noTerminal(let reason): "cannot ask for a password: \(reason)"
    }
  }
}

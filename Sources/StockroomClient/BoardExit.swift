#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Why the board ended; the exit status follows from it.
public enum BoardExit: Sendable, Equatable {
  /// `q` (or Ctrl-D).
  case quit
  /// Ctrl-C, as a key in raw mode or as SIGINT.
  case interrupted
  /// SIGTERM or SIGHUP.
  case signalled(Int32)

  /// 0 for `q`; 128 + the signal otherwise, as a shell reports a program a signal stopped.
  public var status: Int32 {
    switch self {
    case .quit: return 0
    case .interrupted: return 128 + SIGINT
    case .signalled(let signal): return 128 + signal
    }
  }
}

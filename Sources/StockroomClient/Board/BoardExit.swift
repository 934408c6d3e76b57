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
  /// Waiting itself failed (poll(2) said something other than "interrupted").
  case failed

  /// 0 for `q`; 128 + the signal, as a shell reports a program a signal stopped; 70
  /// (EX_SOFTWARE) when the board could not go on.
  public var status: Int32 {
    switch self {
    case .quit: return 0
    case .interrupted: return 128 + SIGINT
    case .signalled(let signal): return 128 + signal
    case .failed: return 70
    }
  }
}

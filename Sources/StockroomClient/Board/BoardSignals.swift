#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// SIGWINCH, SIGINT, SIGTERM and SIGHUP while the board runs, turned into bytes on a pipe the
/// board's poll(2) watches (the self-pipe trick): a signal handler may do almost nothing, so
/// it writes the signal's number and the loop does the rest. `stop` puts back the handlers
/// that were there before, so the REPL's `:top` leaves the REPL's own in place.
public final class BoardSignals {
  public static let handled: [Int32] = [SIGWINCH, SIGINT, SIGTERM, SIGHUP]

  /// The pipe's write end, for the handler, which cannot capture anything.
  nonisolated(unsafe) private static var writeEnd: Int32 = -1

  public let readEnd: Int32
  private let ownWriteEnd: Int32
  private var previous: [Int32: sigaction] = [:]

  public init?() {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { return nil }
    for end in ends {
      _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
    }
    readEnd = ends[0]
    ownWriteEnd = ends[1]
    Self.writeEnd = ends[1]
    for signal in Self.handled {
      var action = sigaction()
      action.__sigaction_handler.sa_handler = { number in
        var byte = UInt8(truncatingIfNeeded: number)
        _ = write(BoardSignals.writeEnd, &byte, 1)
      }
      sigemptyset(&action.sa_mask)
      action.sa_flags = SA_RESTART
      var old = sigaction()
      if sigaction(signal, &action, &old) == 0 { previous[signal] = old }
    }
  }

  deinit { stop() }

  /// The signals that arrived since the last call, oldest first.
  public func take() -> [Int32] {
    var bytes = [UInt8](repeating: 0, count: 64)
    var signals: [Int32] = []
    while true {
      let count = bytes.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
      guard count > 0 else { break }
      signals += bytes[..<count].map { Int32($0) }
    }
    return signals
  }

  public func stop() {
    guard !previous.isEmpty else { return }
    for (signal, old) in previous {
      var old = old
      _ = sigaction(signal, &old, nil)
    }
    previous.removeAll()
    Self.writeEnd = -1
    close(readEnd)
    close(ownWriteEnd)
  }
}

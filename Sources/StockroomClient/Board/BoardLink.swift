/// How the board's connection stands, which its status line shows.
public enum BoardLink: Sendable, Equatable {
  case connected
  /// The server went away; the next attempt is due in `retryIn` seconds.
  case lost(reason: String, attempts: Int, retryIn: Double)
}

/// When to try a lost server again: soon at first, then twice as long each time up to a
/// ceiling, the REPL's schedule (0.25 s, 0.5 s, 1 s, ... 5 s).
public struct RetryBackoff: Sendable, Equatable {
  public static let first = 0.25
  public static let longest = 5.0

  public private(set) var delay = RetryBackoff.first
  public private(set) var attempts = 0

  public init() {}

  /// The wait before the next attempt, after one more failure.
  public mutating func failed() -> Double {
    attempts += 1
    defer { delay = min(delay * 2, Self.longest) }
    return delay
  }

  public mutating func reset() {
    delay = Self.first
    attempts = 0
  }
}

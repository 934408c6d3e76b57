/// Connections turned away past `--max-clients`, said in the log once per interval rather than
/// once each: a flood of thousands a second would otherwise bury every other line under its own
/// and cost a write apiece. The first of an interval is logged in full (who, and why); the rest
/// are counted and said in one line when the interval ends.
package struct RejectionLog {
  /// How long after a logged rejection the next ones are only counted.
  package let interval: Duration
  private var open = false
  private var unsaid = 0

  package init(interval: Duration) {
    self.interval = interval
  }

  /// Notes one rejection; true when it opens an interval and is to be logged in full (the caller
  /// then calls `intervalEnded` once the interval has passed).
  package mutating func rejected() -> Bool {
    if open {
      unsaid += 1
      return false
    }
    open = true
    return true
  }

  /// Closes the interval and returns how many rejections in it were not logged.
  package mutating func intervalEnded() -> Int {
    defer {
      unsaid = 0
      open = false
    }
    return unsaid
  }
}

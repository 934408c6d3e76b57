/// Connections turned away past `--max-clients`, said in the log once per interval rather than
/// once each: a flood of thousands a second would otherwise bury every other line under its own
/// and cost a write apiece. The first of an interval is logged in full (who, and why); the rest
/// are counted and said in one line when the interval ends. `SourceLogRate` with one source.
package struct RejectionLog {
  private var rate: SourceLogRate<Bool>

  /// How long after a logged rejection the next ones are only counted.
  package var interval: Duration { rate.interval }

  package init(interval: Duration) {
    rate = SourceLogRate(interval: interval, inFull: 1, capacity: 1)
  }

  /// Notes one rejection; true when it opens an interval and is to be logged in full (the caller
  /// then calls `intervalEnded` once the interval has passed).
  package mutating func rejected() -> Bool {
    rate.note(true, label: "").inFull
  }

  /// Closes the interval and returns how many rejections in it were not logged.
  package mutating func intervalEnded() -> Int {
    rate.intervalEnded().reduce(0) { $0 + $1.count }
  }
}

/// Like events from many sources (connects, rejections) said in the log at a bounded rate: in
/// each interval, the first `inFull` events of a source are logged one by one, and the rest are
/// counted and said in one line per source when the interval ends. A loop that connects and
/// closes as fast as it can wrote 260,437 lines (28.6 MB) in 30 s (issue 41); now it writes
/// `inFull` and a count per interval, while every other source's first events are still logged
/// in full.
///
/// The table is bounded: at most `capacity` sources per interval, each a few dozen bytes; the
/// events of sources past it are counted together and said as one line. It is emptied when the
/// interval ends, which the caller brings about (a timer) when `note` says one has begun.
package struct SourceLogRate<Source: Hashable> {
  /// What to do with one event.
  package struct Note: Equatable {
    /// Log the event in full; otherwise it is counted.
    package var inFull: Bool
    /// The event began an interval: call `intervalEnded` once `interval` has passed.
    package var beganInterval: Bool

    package init(inFull: Bool, beganInterval: Bool) {
      self.inFull = inFull
      self.beganInterval = beganInterval
    }
  }

  /// A source's events in the current interval not logged one by one, and what to call it then.
  package struct Unsaid: Equatable {
    /// nil: sources past `capacity`, together.
    package var label: String?
    package var count: Int

    package init(label: String?, count: Int) {
      self.label = label
      self.count = count
    }
  }

  private struct Window {
    var label: String
    var logged = 0
    var unsaid = 0
  }

  package let interval: Duration
  package let inFull: Int
  package let capacity: Int
  private var windows: [Source: Window] = [:]
  private var others = 0
  private var open = false

  package init(interval: Duration, inFull: Int, capacity: Int = 4_096) {
    self.interval = interval
    self.inFull = inFull
    self.capacity = capacity
  }

  /// Notes one event from `source`, which the summary calls `label` (made only when needed).
  package mutating func note(_ source: Source, label: @autoclosure () -> String) -> Note {
    let began = !open
    open = true
    guard var window = windows[source] ?? (windows.count < capacity ? Window(label: label()) : nil) else {
      others += 1
      return Note(inFull: false, beganInterval: began)
    }
    let full = window.logged < inFull
    if full { window.logged += 1 } else { window.unsaid += 1 }
    windows[source] = window
    return Note(inFull: full, beganInterval: began)
  }

  /// Closes the interval: what each source had counted rather than logged (sources with nothing
  /// counted are left out; those past `capacity` last, as one), and forgets every source.
  package mutating func intervalEnded() -> [Unsaid] {
    var unsaid = windows.values.filter { $0.unsaid > 0 }.map { Unsaid(label: $0.label, count: $0.unsaid) }
    unsaid.sort { ($0.label ?? "") < ($1.label ?? "") }
    if others > 0 { unsaid.append(Unsaid(label: nil, count: others)) }
    windows = [:]
    others = 0
    open = false
    return unsaid
  }
}

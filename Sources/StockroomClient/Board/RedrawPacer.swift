/// Coalesces redraws: however fast events arrive, the board is drawn at most once per
/// interval, and a change is never left undrawn for longer than that.
public struct RedrawPacer: Sendable, Equatable {
  public let interval: Double
  public private(set) var isDirty = true
  private var lastDraw = -Double.infinity

  public init(interval: Double = 0.2) {
    self.interval = interval
  }

  public mutating func changed() { isDirty = true }

  /// True when a frame should be drawn now; the caller then draws and calls `drew(at:)`.
  public func isDue(at now: Double) -> Bool {
    isDirty && now - lastDraw >= interval
  }

  public mutating func drew(at now: Double) {
    isDirty = false
    lastDraw = now
  }

  /// How long the loop may sleep before a pending change is due, in milliseconds; nil when
  /// nothing is pending.
  public func millisecondsUntilDue(at now: Double) -> Int32? {
    guard isDirty else { return nil }
    return Int32(max(0, ((lastDraw + interval - now) * 1000).rounded(.up)))
  }
}

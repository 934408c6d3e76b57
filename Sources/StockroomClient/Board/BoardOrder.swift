/// One order as the board's recent-orders list shows it, gathered from its `! stock` events
/// (one event per item the order took).
public struct BoardOrder: Sendable, Equatable {
  public var id: String
  /// Items taken, by display name, in the order their events came, with the (negative) change.
  public var lines: [(item: String, change: String)]
  /// Who ordered; only staff are told.
  public var user: String?
  /// The wall-clock time it arrived, `HH:MM:SS`.
  public var time: String

  public init(id: String, user: String?, time: String) {
    self.id = id
    self.user = user
    self.time = time
    self.lines = []
  }

  public static func == (lhs: BoardOrder, rhs: BoardOrder) -> Bool {
    lhs.id == rhs.id && lhs.user == rhs.user && lhs.time == rhs.time
      && lhs.lines.map(\.item) == rhs.lines.map(\.item) && lhs.lines.map(\.change) == rhs.lines.map(\.change)
  }
}

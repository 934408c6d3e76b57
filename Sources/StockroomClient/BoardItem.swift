/// One stocked item on the live board: what it is called and how much is left.
public struct BoardItem: Sendable, Equatable {
  public var id: String
  public var name: String
  public var level: Int
  /// The most this item has held while the board watched it, so a bar's length means the same
  /// from one frame to the next; at least 10, so one or two left still looks low.
  public var scale: Int

  public init(id: String, name: String, level: Int) {
    self.id = id
    self.name = name
    self.level = level
    self.scale = max(10, level)
  }

  public mutating func move(to level: Int) {
    self.level = level
    scale = max(scale, level)
  }
}

/// One stocked item on the live board: what it is called and how much is left.
public struct BoardItem: Sendable, Equatable {
  public var id: String
  public var name: String
  public var level: Int
  /// The most this item has held while the board watched it, so a bar's length means the same
  /// from one frame to the next; at least 10, so one or two left still looks low.
  public var scale: Int
  /// The starting level STOCK reports (`initial=`), which STOCK draws its bar against; the
  /// board draws the same bar once it knows it.
  public var initial: Int?

  public init(id: String, name: String, level: Int, initial: Int? = nil) {
    self.id = id
    self.name = name
    self.level = level
    self.scale = max(10, level)
    self.initial = initial
  }

  /// The bar STOCK would draw for this item: against its starting level, full once past it.
  var bar: StockBar { StockBar(level: level, reference: initial ?? scale) }

  public mutating func move(to level: Int) {
    self.level = level
    scale = max(scale, level)
  }
}

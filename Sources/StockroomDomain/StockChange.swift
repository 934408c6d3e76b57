/// One item's stock after a restock or stocktake, and by how much it moved.
public struct StockChange: Sendable, Hashable {
  public var item: String
  public var kind: ItemKind
  public var change: Int
  public var level: Int
}

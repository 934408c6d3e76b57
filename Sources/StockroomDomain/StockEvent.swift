/// A change of one item's stock level, as WATCH reports it.
public struct StockEvent: Sendable, Equatable {
  public enum Cause: Sendable, Equatable {
    case order(id: Int, user: String)
    case restock(user: String)
    case correction(user: String)
    case listed(user: String)
    case delisted(user: String)
    /// Not a change anyone made: a node on a shared store that lost it for a while tells its
    /// watchers the level the store holds now.
    case resync

    /// The word events and the ledger use: `order`, `restock`, `stocktake`, `listed`, `delisted`.
    public var name: String {
      switch self {
      case .order: "order"
      case .restock: "restock"
      case .correction: "stocktake"
      case .listed: "listed"
      case .delisted: "delisted"
      case .resync: "resync"
      }
    }

    public var user: String {
      switch self {
      case .order(_, let user), .restock(let user), .correction(let user), .listed(let user),
        .delisted(let user):
        user
      case .resync: ""
      }
    }

    public var orderID: Int? {
      if case .order(let id, _) = self { return id }
      return nil
    }
  }

  public var item: String
  /// The item's display name when the change was made: a catalogue `name` or the product's.
  public var name: String
  public var level: Int
  public var change: Int
  public var cause: Cause

  public init(item: String, name: String, level: Int, change: Int, cause: Cause) {
    self.item = item
    self.name = name
    self.level = level
    self.change = change
    self.cause = cause
  }
}

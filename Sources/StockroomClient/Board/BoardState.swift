import StockroomProtocol

/// Everything the live board shows, kept up to date from `STOCK`, `NAMES`, `WHO` and
/// `! stock` events. A value with no I/O, so what a frame holds can be checked on its own.
public struct BoardState: Sendable {
  /// Where the board is watching, `HOST:PORT`.
  public var server: String
  public private(set) var items: [BoardItem] = []
  /// Newest first.
  public private(set) var orders: [BoardOrder] = []
  /// Orders seen since the board started, across reconnects.
  public private(set) var ordersSeen = 0
  public var presence: BoardPresence? = nil
  public var link = BoardLink.connected
  public private(set) var storeLink = BoardStoreLink.up
  /// Who the board is logged in as; nil for a guest.
  public var identity: Identity? = nil
  /// One line for the user that is not part of the board itself: a failed login, "reconnected".
  public var notice: String? = nil
  /// Arrival times (monotonic seconds) of the orders in the rate window.
  private var orderTimes: [Double] = []
  private var names: [String: String] = [:]

  /// How far back orders per second looks.
  public static let rateWindow = 5.0
  public static let ordersKept = 100

  public init(server: String) {
    self.server = server
  }

  /// The levels as `STOCK` reports them now; the items keep their bars' scale and their names.
  public mutating func resync(stock reply: Reply) {
    let old = Dictionary(items.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    items = reply.rows.compactMap { row in
      guard let id = row.id, let level = row["stock"].flatMap({ Int($0) }) else { return nil }
      var item = old[id] ?? BoardItem(id: id, name: names[id] ?? id, level: level)
      item.move(to: level)
      item.initial = row["initial"].flatMap { Int($0) } ?? item.initial
      return item
    }
  }

  /// Display names from `NAMES`, which `STOCK` does not carry.
  public mutating func learn(names reply: Reply) {
    for row in reply.rows {
      guard let id = row.id, let name = row["name"] else { continue }
      names[id] = name
    }
    for index in items.indices { items[index].name = names[items[index].id] ?? items[index].name }
  }

  /// What `WATCH` answered: a server whose shared database is down says `store=down`.
  public mutating func watching(reply: Reply) {
    storeLink = reply.statusFields["store"] == "down" ? .down(reason: nil) : .up
  }

  /// Applies one `! stock` or `! store` event; other event kinds are not the board's.
  public mutating func apply(event row: Row, now: Double, clock: String) {
    if row.id == "store" {
      switch row["state"] {
      case "down": storeLink = .down(reason: row["reason"])
      case "up": storeLink = .up
      default: break
      }
      return
    }
    guard row.id == "stock", let id = row["item"], let level = row["level"].flatMap({ Int($0) }) else { return }
    let name = row["name"] ?? names[id] ?? id
    names[id] = name
    switch row["cause"] {
    case "delisted":
      items.removeAll { $0.id == id }
    default:
      if let index = items.firstIndex(where: { $0.id == id }) {
        items[index].move(to: level)
        items[index].name = name
      } else {
        // A product just listed starts at the level it was listed with, as STOCK will say.
        items.append(BoardItem(id: id, name: name, level: level, initial: row["cause"] == "listed" ? level : nil))
      }
    }
    guard row["cause"] == "order", let order = row["order"] else { return }
    // One order's events come one after another, one per item it took.
    if orders.first?.id != order {
      orders.insert(BoardOrder(id: order, user: row["user"], time: clock), at: 0)
      if orders.count > Self.ordersKept { orders.removeLast() }
      ordersSeen += 1
      orderTimes.append(now)
    }
    orders[0].lines.append((name, row["change"] ?? ""))
    forget(before: now)
  }

  /// Orders a second over the last few seconds.
  public mutating func ordersPerSecond(now: Double) -> Double {
    forget(before: now)
    return Double(orderTimes.count) / Self.rateWindow
  }

  private mutating func forget(before now: Double) {
    if let keep = orderTimes.firstIndex(where: { now - $0 <= Self.rateWindow }) {
      orderTimes.removeFirst(keep)
    } else {
      orderTimes.removeAll()
    }
  }
}

import StockroomEngine
import StockroomProtocol
import StockroomTransport

extension Server {
  /// What the HTTP server serves, read from this server when asked.
  var boardSite: BoardSite {
    let encoder = BoardEventEncoder(showsNames: configuration.httpNames)
    var site = BoardSite(
      metrics: { [self] in metricsText() },
      board: { [self] resync in
        let state = boardStoreState
        let stats = boardStats(encoder)
        return shop.read { encoder.board($0, resync: resync, store: state, stats: stats) }
      },
      stats: { [self] in boardStats(encoder) }, hub: shop.hub, counters: stats,
      nextID: { [self] in nextConnectionID.add(1, ordering: .relaxed).oldValue },
      watchTimeout: configuration.watchTimeout, encoder: encoder)
    site.menu = { [self] in shop.read { PhoneMenuEncoder.menu($0) } }
    site.order = { [self] order, source, done in phoneOrder(order, from: source, done: done) }
    return site
  }

  /// A phone's order (`POST /order`) as a guest's `ORDER` from the phone's address, run on the
  /// first event loop as a connection's line is (`PhoneOrderRun`).
  private func phoneOrder(
    _ order: PhoneOrder, from source: PeerSource, done: @escaping @Sendable (PhoneOrderReply) -> Void
  ) {
    let line = "ORDER \(Quoting.quote(order.item)) \(order.quantity)"
    let run = PhoneOrderRun(handler: handler, loop: loops[0], source: source) { [shop] bytes in
      done(PhoneOrderAnswer.reply(bytes) { id in shop.read { $0.displayName(of: id) } })
    }
    let queued = loops[0].execute { run.start(line) }
    if !queued { done(.refusal(.serviceUnavailable, code: "UNAVAILABLE", "the server is stopping")) }
  }

  private func boardStats(_ encoder: BoardEventEncoder) -> String {
    let (orders, newest, recent) = shop.read { ($0.ordersMade, $0.counters.nextOrderID - 1, encoder.recent($0)) }
    return encoder.stats(
      connections: connectedClients, orders: orders, newestOrder: newest, watchers: shop.hub.watcherCount,
      store: boardStoreState, recent: recent)
  }

  /// The store as the board shows it: a lost shared store first (its levels may be stale), then
  /// a store refusing writes (INFO's `read_only`, the metrics' `stockroom_read_only`).
  private var boardStoreState: BoardStoreState {
    if let shared = shop.changes.sharedFigures, !shared.connected {
      return .down(reason: "the shared store cannot be reached")
    }
    return shop.readOnlyReason.map { .readOnly(reason: $0) } ?? .up
  }
}

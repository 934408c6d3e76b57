import StockroomEngine
import StockroomTransport

extension Server {
  /// What the HTTP server serves, read from this server when asked.
  var boardSite: BoardSite {
    let encoder = BoardEventEncoder(showsNames: configuration.httpNames)
    return BoardSite(
      metrics: { [self] in metricsText() },
      board: { [self] resync in
        let down =
          store.changes.sharedFigures.map { $0.connected ? nil : "the shared store cannot be reached" } ?? nil
        let stats = boardStats(encoder)
        return store.read { encoder.board($0, resync: resync, storeDown: down, stats: stats) }
      },
      stats: { [self] in boardStats(encoder) }, hub: store.hub, counters: stats,
      nextID: { [self] in nextConnectionID.add(1, ordering: .relaxed).oldValue },
      watchTimeout: configuration.watchTimeout, encoder: encoder)
  }

  private func boardStats(_ encoder: BoardEventEncoder) -> String {
    let (orders, newest) = store.read { ($0.ordersMade, $0.counters.nextOrderID - 1) }
    return encoder.stats(
      connections: connectedClients, orders: orders, newestOrder: newest, watchers: store.hub.watcherCount)
  }
}

import StockroomEngine

/// What the HTTP server serves, from the server that runs it: the metrics text, the board's
/// JSON, the hub its streams subscribe to, where a dropped stream is counted, and the phone
/// page's menu and orders.
package struct BoardSite: Sendable {
  package var metrics: @Sendable () -> String
  /// The whole board now; true for a `resync` (the browser had a stream before).
  package var board: @Sendable (_ resync: Bool) -> String
  /// A `stats` event's JSON, now.
  package var stats: @Sendable () -> String
  package var hub: WatchHub
  package var counters: ServerStats
  /// A key for a new stream in the hub, from the numbering the shop's connections use.
  package var nextID: @Sendable () -> Int
  /// Seconds a stream may leave its events untaken before it is closed (`--watch-timeout`;
  /// 0 for never).
  package var watchTimeout: Int
  package var encoder: BoardEventEncoder
  /// The phone page's menu as JSON (`PhoneMenuEncoder`), now.
  package var menu: @Sendable () -> String = { "{\"sections\":[]}" }
  /// Places `order` as a guest's `ORDER` from `source`, through the shop's change path, and
  /// calls `done` with the answer once it is saved (or refused), on any thread.
  package var order: Ordering = { _, _, done in
    done(.refusal(.serviceUnavailable, code: "UNAVAILABLE", "this server takes no orders here"))
  }

  package typealias Ordering =
    @Sendable (_ order: PhoneOrder, _ source: PeerSource, _ done: @escaping @Sendable (PhoneOrderReply) -> Void) -> Void

  package init(
    metrics: @escaping @Sendable () -> String, board: @escaping @Sendable (Bool) -> String,
    stats: @escaping @Sendable () -> String, hub: WatchHub, counters: ServerStats,
    nextID: @escaping @Sendable () -> Int, watchTimeout: Int, encoder: BoardEventEncoder
  ) {
    self.encoder = encoder
    self.metrics = metrics
    self.board = board
    self.stats = stats
    self.hub = hub
    self.counters = counters
    self.nextID = nextID
    self.watchTimeout = watchTimeout
  }
}

import StockroomEngine

/// What the HTTP server serves, from the server that runs it: the metrics text, the board's
/// JSON, the hub its streams subscribe to, and where a dropped stream is counted.
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

import StockroomEngine
import StockroomPersistence

extension ConnectionLimits {
  /// The bounds the configuration sets for every connection.
  package init(_ configuration: ServerConfiguration) {
    self.init(
      maxLine: configuration.maxLine, outputHighWater: configuration.outputHighWater,
      outputHardLimit: configuration.outputHardLimit, idleTimeout: configuration.idleTimeout,
      lineTimeout: configuration.lineTimeout)
    self.watchTimeout = configuration.watchTimeout
    // Every connection's share of the shared writer's queue, so that all the clients the server
    // takes cannot fill it between them: an address holds no more of it than its connections'
    // shares (--max-clients-per-address), and a newcomer's change is never refused for a full
    // queue. 9 a connection with the default 1,024 clients.
    self.queuedChanges = min(
      queuedChanges, max(1, SharedWriter.queueCapacity / max(1, configuration.maxClients)))
  }
}

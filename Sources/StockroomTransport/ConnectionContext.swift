import StockroomEngine
import StockroomLogging

/// What every connection shares: its limits, the shop, the handler, and the way back to the
/// server.
package struct ConnectionContext: Sendable {
  package let limits: ConnectionLimits
  /// How long a TLS client may take to finish its handshake.
  package let handshakeTimeout: Duration
  package let shop: Shop
  package let handler: CommandHandler
  package let logger: Logger
  /// What watchers may leave unsent, all of them together.
  package let unsentBudget: UnsentOutputBudget
  /// Told once a connection's descriptor is closed, with the reason.
  package let connectionClosed: @Sendable (Connection, CloseReason) -> Void

  package init(
    limits: ConnectionLimits, handshakeTimeout: Duration, shop: Shop, handler: CommandHandler, logger: Logger,
    unsentBudget: UnsentOutputBudget, connectionClosed: @escaping @Sendable (Connection, CloseReason) -> Void
  ) {
    self.limits = limits
    self.handshakeTimeout = handshakeTimeout
    self.shop = shop
    self.handler = handler
    self.logger = logger
    self.unsentBudget = unsentBudget
    self.connectionClosed = connectionClosed
  }
}

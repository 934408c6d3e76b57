import StockroomEngine

extension ConnectionLimits {
  /// The bounds the configuration sets for every connection.
  package init(_ configuration: ServerConfiguration) {
    self.init(
      maxLine: configuration.maxLine, outputHighWater: configuration.outputHighWater,
      outputHardLimit: configuration.outputHardLimit, idleTimeout: configuration.idleTimeout,
      lineTimeout: configuration.lineTimeout)
    self.watchTimeout = configuration.watchTimeout
  }
}

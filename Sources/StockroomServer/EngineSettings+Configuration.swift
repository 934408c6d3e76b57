import StockroomEngine

extension EngineSettings {
  /// What the handlers need of the daemon's configuration.
  package init(_ configuration: ServerConfiguration) {
    self.init(
      maxLine: configuration.maxLine, registration: configuration.registration,
      allowPlaintextAuth: configuration.allowPlaintextAuth, tlsPort: configuration.tls?.port,
      io: configuration.io.rawValue, loops: configuration.resolvedLoops, maxClients: configuration.maxClients,
      fsync: configuration.fsync, orderRate: configuration.orderRate,
      maxClientsPerAddress: configuration.maxClientsPerAddress, passwordCost: configuration.passwordCost)
  }
}

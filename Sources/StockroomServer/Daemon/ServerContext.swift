/// What every connection shares: configuration, store, handler, and the way back to the server.
struct ServerContext: Sendable {
  let configuration: ServerConfiguration
  let store: Store
  let handler: CommandHandler
  let logger: Logger
  /// Told once a connection's descriptor is closed, with the reason.
  let connectionClosed: @Sendable (Connection, CloseReason) -> Void
}

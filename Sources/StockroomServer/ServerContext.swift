/// What every connection shares: configuration, store, handler, and the way back to the server.
struct ServerContext: Sendable {
  let configuration: ServerConfiguration
  let store: Store
  let handler: CommandHandler
  let logger: Logger
  let connectionClosed: @Sendable (Connection, String) -> Void

  func connectionClosed(_ connection: Connection, reason: String) {
    connectionClosed(connection, reason)
  }
}

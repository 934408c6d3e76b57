/// A `NOTIFY` received on a channel this connection listens on.
public struct PostgresNotification: Sendable, Equatable {
  public let channel: String
  public let payload: String
  /// The server process that sent it; equal to the connection's own backend for its own NOTIFY.
  public let senderProcess: Int32

  public init(channel: String, payload: String, senderProcess: Int32) {
    self.channel = channel
    self.payload = payload
    self.senderProcess = senderProcess
  }
}

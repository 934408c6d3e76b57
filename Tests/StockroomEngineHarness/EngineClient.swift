/// A test's client of the engine alone: the protocol line by line, as the server's tests'
/// `LineClient` speaks it, through an `EmbeddedChannel` instead of a socket. There is no
/// descriptor to ask the kernel about: a test that needs one is a socket test.
final class EngineClient: LineProtocolClient, @unchecked Sendable {
  typealias Failure = ClientFailure

  let channel: EmbeddedChannel
  let received = ReceivedLines()

  init(_ channel: EmbeddedChannel) {
    self.channel = channel
  }

  /// The channel is closed too: a completion queued on it after the test's last read would
  /// otherwise keep it, and its engine, alive.
  deinit { channel.close() }

  /// The client goes away now.
  func closeNow() { channel.close() }

  func send(_ bytes: [UInt8]) throws {
    guard !channel.isClosed else { throw Failure(description: "write failed: the engine closed the connection") }
    channel.write(bytes)
  }

  /// What the engine has answered, waiting for it; none once it closed the connection.
  func receive() throws -> [UInt8] {
    try channel.read()
  }
}

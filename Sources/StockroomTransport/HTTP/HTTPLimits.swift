/// What anyone can make the board's HTTP server hold, in connections, bytes and seconds.
package enum HTTPLimits {
  /// Connections at once, streams and page loads and scrapes together.
  package static let connections: UInt32 = 512
  /// Connections from one IP address: a room behind one NAT still fits, a flood from one host
  /// cannot take every place.
  package static let connectionsPerAddress: UInt32 = 32
  /// Buffer per connection: the request's head (line and header fields) must fit in about half.
  package static let memoryPerConnection = 32 * 1024
  /// Seconds a connection may go without sending or taking a byte, an event stream excepted
  /// (it has the watch timeout, as a WATCH connection does).
  package static let idleSeconds: UInt32 = 10
  /// Bytes the kernel may hold unsent on an event stream's socket (it doubles this for its own
  /// bookkeeping); MHD holds up to 16 KiB more, the mailbox the rest, up to its 100,000 events.
  package static let streamSendBuffer: Int32 = 64 * 1024
  /// Event streams at once; the next gets 503 and its browser retries.
  package static let streams = 64
  /// Seconds between the streams' `stats` events, which also tell a stream whose browser has
  /// gone that it is gone.
  package static let tickSeconds = 2
}

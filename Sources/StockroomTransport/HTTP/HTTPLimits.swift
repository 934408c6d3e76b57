/// What anyone can make the board's HTTP server hold, in connections, bytes and seconds.
package enum HTTPLimits {
  /// Connections at once, streams and page loads and scrapes together.
  package static let connections: UInt32 = 512
  /// Connections from one IP address (an IPv6 /64): a room behind one NAT still fits, a flood
  /// from one host cannot take every place. When all `connections` are held, a connection from
  /// an address holding fewer than the address holding the most takes one of that address's
  /// places (`SourceShares`).
  package static let connectionsPerAddress: UInt32 = 32
  /// Connections MHD itself takes beyond `connections`: those the server has cut and MHD has yet
  /// to close, so that a place given to a newcomer is not refused by MHD meanwhile.
  static let spareConnections: UInt32 = 64
  /// Seconds from a connection's accept to its request's head being whole, however steadily
  /// its bytes trickle in (MHD's own timeout restarts at every byte); past it, 408 and closed.
  /// A browser or scraper sends its head at once; 10 s covers a very slow link.
  package static let headSeconds = 10
  /// Buffer per connection: the request's head (line and header fields) must fit in about half.
  package static let memoryPerConnection = 32 * 1024
  /// Seconds a connection may go without sending or taking a byte, an event stream excepted
  /// (it has the watch timeout, as a WATCH connection does).
  package static let idleSeconds: UInt32 = 10
  /// Bytes the kernel may hold unsent on an event stream's socket (it doubles this for its own
  /// bookkeeping); MHD holds up to 16 KiB more, the mailbox the rest, up to its 100,000 events.
  package static let streamSendBuffer: Int32 = 64 * 1024
  /// Event streams at once. When all are held, a stream from an address holding fewer than the
  /// address holding the most takes the place of that address's oldest stream (its browser
  /// reconnects, and is refused while its address still holds the most); otherwise 503, and the
  /// browser retries.
  package static let streams = 64
  /// Event streams from one address (an IPv6 /64): eight browsers behind one address, so that
  /// eight addresses at least share the 64.
  package static let streamsPerAddress = 8
  /// Seconds between the streams' `stats` events, which also tell a stream whose browser has
  /// gone that it is gone.
  package static let tickSeconds = 2
}

extension HTTPLimits {
  /// Bytes of a `POST /order` body: a token, a key, an item's id and a quantity fit in far less.
  package static let orderBody = 2 * 1024
  /// Phone pages' tokens kept (each `GET /join` makes one), and from one address; a page whose
  /// token was forgotten (after 12 hours, or its address's oldest past 64) asks for a reload.
  package static let pageTokens = 4096
  package static let pageTokensPerAddress = 64
  package static let pageTokenLifetime: Duration = .seconds(12 * 3600)
  /// Order keys remembered with their answers, so that a double tap or a retry orders once,
  /// and from one address; each for 10 minutes (the page makes a new key for each tap).
  package static let orderKeys = 4096
  package static let orderKeysPerAddress = 256
  package static let orderKeyLifetime: Duration = .seconds(600)
}

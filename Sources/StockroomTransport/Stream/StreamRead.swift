import StockroomEngine

/// What one read of a `ConnectionStream` gave.
enum StreamRead {
  /// This many bytes, never 0.
  case bytes(Int)
  /// Nothing now; wait for the socket to be readable.
  case wouldBlock
  /// The peer ended its side (a FIN, or TLS's close_notify or not).
  case ended
  /// The stream cannot go on, and why the connection closes.
  case failed(CloseReason)
}

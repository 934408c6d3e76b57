import StockroomEngine

/// What one write to a `ConnectionStream` did.
enum StreamWrite {
  /// This many bytes were taken, never 0.
  case bytes(Int)
  /// Nothing was taken; write again once the socket is ready this way (TLS may need a read).
  case blocked(EventLoop.Interest)
  /// The stream cannot go on, and why the connection closes.
  case failed(CloseReason)
}

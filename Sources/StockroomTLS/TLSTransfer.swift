/// What one TLS read or write did.
public enum TLSTransfer: Sendable, Equatable {
  /// Plaintext bytes delivered (read) or taken (write); never 0.
  case bytes(Int)
  /// Nothing moved; call again once the socket is ready this way.
  case wants(TLSWant)
  /// The peer ended the stream: `clean` when it said so with close_notify, not when the
  /// connection simply ended, which could also be a cut-off stream.
  case closed(clean: Bool)
  case failed(TLSError)
}

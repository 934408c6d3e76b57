/// Where a stream's handshake stands after one step.
enum StreamHandshake {
  /// Done: what was agreed, for the log (`TLSv1.3 TLS_AES_256_GCM_SHA384 client="CN=…"`).
  case done(String)
  /// Step again once the socket is ready this way.
  case wants(EventLoop.Interest)
  /// It failed, and why.
  case failed(String)
  /// The peer speaks something else (plain text on the TLS port): it was told so in one plain
  /// line, and the connection closes without running anything.
  case foreign
}

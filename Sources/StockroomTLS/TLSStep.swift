/// How far a handshake or a shutdown got.
public enum TLSStep: Sendable, Equatable {
  case done
  /// Call again once the socket is ready this way.
  case wants(TLSWant)
  case failed(TLSError)
}

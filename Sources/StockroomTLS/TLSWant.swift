/// Which way the socket must become ready before a TLS operation that would block can go on.
///
/// Either way can be needed by either operation: a read may have to send (a key update's
/// answer), a write may have to receive (a handshake message), so the caller waits for this,
/// not for the direction of the call it made.
public enum TLSWant: Sendable, Equatable {
  case read
  case write
}

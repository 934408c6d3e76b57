/// Where a connection is in its life, as its core decides it; the transport acts on it.
package enum ConnectionPhase: Sendable, Equatable {
  /// Reading and answering requests.
  case open
  /// Answering no more; closing once unsent output is out.
  case closing
  /// Output is out and our side shut; discarding what the client still sends until it closes.
  case draining
  case closed
}

/// What one fuzzing connection does with the socket around its requests.
enum FuzzBehaviour: String, Sendable, CaseIterable {
  /// Reads every reply while sending, then checks one more `PING` answers last.
  case reader
  /// Sends everything, calls `shutdown(SHUT_WR)`, and reads until the server closes.
  case halfCloser
  /// Never reads; stops once the server stops taking its input, then closes.
  case silent
  /// Sends part of its requests, reads a little or not at all, then resets (SO_LINGER 0).
  case resetter
  /// Opens a burst of connections and resets or closes them at once, pushing past --max-clients.
  case flood

  /// Whether the connection reads everything, so that every request line's reply can be counted.
  var countsReplies: Bool { self == .reader || self == .halfCloser }
}

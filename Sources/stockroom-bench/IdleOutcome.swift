/// The server's resident memory before and after a number of idle connections were opened.
struct IdleOutcome: Sendable, Equatable {
  var connections: Int
  var residentBeforeKiB: Int
  var residentAfterKiB: Int

  var bytesPerConnection: Int {
    connections > 0 ? (residentAfterKiB - residentBeforeKiB) * 1024 / connections : 0
  }
}

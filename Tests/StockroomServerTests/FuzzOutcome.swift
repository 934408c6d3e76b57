/// What fuzzing connections did and what went wrong, added up across a run.
struct FuzzOutcome: Sendable {
  var problems: [String] = []
  var connections: [FuzzBehaviour: Int] = [:]
  /// Request lines sent on connections that read everything, each checked for its one reply.
  var countedLines = 0
  var replies = 0
  var events = 0
  /// Connections turned away with `ERR LIMIT`.
  var rejected = 0
  /// Connections that ended on QUIT, a line over the limit, or a line of another protocol.
  var closedEarly = 0
  var bytesSent = 0
  /// Request lines sent whole, by every kind of connection.
  var linesSent = 0

  mutating func add(_ other: FuzzOutcome) {
    problems += other.problems
    connections.merge(other.connections, uniquingKeysWith: +)
    countedLines += other.countedLines
    replies += other.replies
    events += other.events
    rejected += other.rejected
    closedEarly += other.closedEarly
    bytesSent += other.bytesSent
    linesSent += other.linesSent
  }
}

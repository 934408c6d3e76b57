/// The bounds a connection core enforces, taken from the configuration (or set by a test).
package struct ConnectionLimits: Sendable {
  package var maxLine: Int
  /// Unsent plus held output at which no further request is read until the client catches up.
  package var outputHighWater: Int
  /// Unsent plus held output past which a watcher that does not read is closed.
  package var outputHardLimit: Int
  /// Seconds without a byte either way before an idle connection is closed; 0 for never.
  package var idleTimeout: Int
  /// Seconds a request line may take to arrive whole; 0 for no limit.
  package var lineTimeout: Int
  /// Seconds a watcher may leave its output untaken before it is closed; 0 for never.
  package var watchTimeout: Int = 0
  /// How long a closing connection may take to hand over what it owes (replies waiting for their
  /// commit, output the client has not read) before it is closed anyway.
  package var closingGrace: Duration = .seconds(30)
  /// Changes one connection may have queued for a shared store's writer, unanswered, before it
  /// takes no further request: a pipelining client's changes share the writer's transactions,
  /// as they share group commits on SQLite, without one client filling the writer's queue.
  package var queuedChanges = 64

  package init(maxLine: Int, outputHighWater: Int, outputHardLimit: Int, idleTimeout: Int, lineTimeout: Int) {
    self.maxLine = maxLine
    self.outputHighWater = outputHighWater
    self.outputHardLimit = outputHardLimit
    self.idleTimeout = idleTimeout
    self.lineTimeout = lineTimeout
  }
}

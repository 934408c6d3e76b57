/// The bounds a connection core enforces, taken from the configuration (or set by a test).
struct ConnectionLimits: Sendable {
  var maxLine: Int
  /// Unsent plus held output at which no further request is read until the client catches up.
  var outputHighWater: Int
  /// Unsent plus held output past which a watcher that does not read is closed.
  var outputHardLimit: Int
  /// Seconds without a byte either way before an idle connection is closed; 0 for never.
  var idleTimeout: Int
  /// Seconds a request line may take to arrive whole; 0 for no limit.
  var lineTimeout: Int
  /// Seconds a watcher may leave its output untaken before it is closed; 0 for never.
  var watchTimeout: Int = 0
  /// How long a closing connection may take to hand over what it owes (replies waiting for their
  /// commit, output the client has not read) before it is closed anyway.
  var closingGrace: Duration = .seconds(30)

  init(maxLine: Int, outputHighWater: Int, outputHardLimit: Int, idleTimeout: Int, lineTimeout: Int) {
    self.maxLine = maxLine
    self.outputHighWater = outputHighWater
    self.outputHardLimit = outputHardLimit
    self.idleTimeout = idleTimeout
    self.lineTimeout = lineTimeout
  }

  init(_ configuration: ServerConfiguration) {
    self.init(
      maxLine: configuration.maxLine, outputHighWater: configuration.outputHighWater,
      outputHardLimit: configuration.outputHardLimit, idleTimeout: configuration.idleTimeout,
      lineTimeout: configuration.lineTimeout)
    self.watchTimeout = configuration.watchTimeout
  }
}

/// What a load run measured: the merged tallies, how long the measured part took, and the
/// server's CPU time over it.
struct LoadOutcome: Sendable {
  var tally: WorkerTally
  var elapsedSeconds: Double
  /// User plus system clock ticks the server spent; nil when no --server-pid was given.
  var cpuTicks: Int?

  var requestsPerSecond: Double {
    elapsedSeconds > 0 ? Double(tally.requests) / elapsedSeconds : 0
  }

  /// The server's CPU microseconds per measured request, or nil when not measured.
  var cpuMicrosecondsPerRequest: Double? {
    guard let cpuTicks, tally.requests > 0 else { return nil }
    return Double(cpuTicks) * 1e6 / Double(ServerProcess.ticksPerSecond) / Double(tally.requests)
  }
}

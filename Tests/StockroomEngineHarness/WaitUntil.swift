import Foundation
import Testing

/// Polls `condition` until it holds, failing after a generous deadline: what a test waits for
/// (work on the engine's pools, a server's counters) ends on other threads, whatever a clock
/// says.
package func waitUntil(
  timeout: TimeInterval = 20, sourceLocation: SourceLocation = #_sourceLocation, _ condition: () throws -> Bool
) throws {
  let deadline = Date().addingTimeInterval(timeout)
  while Date() < deadline {
    if try condition() { return }
    usleep(10_000)
  }
  Issue.record("condition not met within \(timeout) s", sourceLocation: sourceLocation)
  throw ClientFailure(description: "timed out")
}

import Foundation
import Testing

@testable import StockroomEngineHarness

/// Polls `condition` until it holds, failing after a generous deadline: work on the engine's
/// pools ends on their threads, whatever the harness's clock says.
func waitUntil(
  timeout: TimeInterval = 20, sourceLocation: SourceLocation = #_sourceLocation, _ condition: () throws -> Bool
) throws {
  let deadline = Date().addingTimeInterval(timeout)
  while Date() < deadline {
    if try condition() { return }
    usleep(10_000)
  }
  Issue.record("condition not met within \(timeout) s", sourceLocation: sourceLocation)
  throw EngineClient.Failure(description: "timed out")
}

import Foundation
import Testing

@testable import StockroomEngineHarness

/// The harness's `waitUntil`, the one the engine's tests wait with too, under the name every
/// file of this target calls without importing the harness (a re-export does not reach every
/// file of a target compiled in batches).
func waitUntil(
  timeout: TimeInterval = 20, sourceLocation: SourceLocation = #_sourceLocation, _ condition: () throws -> Bool
) throws {
  try StockroomEngineHarness.waitUntil(timeout: timeout, sourceLocation: sourceLocation, condition)
}

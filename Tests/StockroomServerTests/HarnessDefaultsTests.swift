import StockroomEngine
import StockroomServer
import Testing

@testable import StockroomEngineHarness

/// The engine's tests run the harness with the daemon's defaults written out again
/// (`EngineHarness.defaultSettings`, `defaultLimits`), since their target does not link the
/// server's `ServerConfiguration`. Here, where both are linked, the two must agree.
@Suite("The engine harness's defaults are the daemon's", .timeLimit(.minutes(30)))
struct HarnessDefaultsTests {
  @Test("settings and connection limits match a configuration with no options")
  func sameAsTheDaemon() {
    var daemon = EngineSettings(ServerConfiguration())
    // The loops follow the machine's cores, which the engine's tests do not depend on.
    daemon.loops = EngineHarness.defaultSettings.loops
    // Test servers hash passwords at the least cost (`TestAccounts`); the daemon's is the default.
    #expect(daemon.passwordCost == .interactive)
    daemon.passwordCost = EngineHarness.defaultSettings.passwordCost
    #expect(daemon == EngineHarness.defaultSettings)
    let limits = ConnectionLimits(ServerConfiguration())
    let harness = EngineHarness.defaultLimits
    #expect(limits.maxLine == harness.maxLine && limits.outputHighWater == harness.outputHighWater)
    #expect(limits.outputHardLimit == harness.outputHardLimit && limits.idleTimeout == harness.idleTimeout)
    #expect(limits.lineTimeout == harness.lineTimeout && limits.watchTimeout == harness.watchTimeout)
    #expect(limits.closingGrace == harness.closingGrace)
  }
}

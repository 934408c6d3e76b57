import StockroomDomain
import StockroomEngine
import StockroomProtocol

/// What a daemon started with no options hands its engine, for a harness that has no
/// `ServerConfiguration` (the server target's) to make it from. The server's tests check that
/// the two agree (`HarnessDefaultsTests`), so these cannot drift from the daemon's; but one: the
/// harness hashes passwords at the least cost, as every test server does (`TestAccounts`).
extension EngineHarness {
  static let defaultSettings = EngineSettings(
    maxLine: ProtocolVersion.defaultMaxLine, registration: .open, allowPlaintextAuth: false, tlsPort: nil,
    io: "epoll", loops: 1, maxClients: 1024, fsync: .always, orderRate: 1_000, maxClientsPerAddress: 256,
    passwordCost: .least)

  static let defaultLimits: ConnectionLimits = {
    var limits = ConnectionLimits(
      maxLine: ProtocolVersion.defaultMaxLine, outputHighWater: 256 * 1024, outputHardLimit: 2 * 1024 * 1024,
      idleTimeout: 600, lineTimeout: 30)
    limits.watchTimeout = 300
    return limits
  }()
}

import StockroomDomain
import StockroomSecurity

/// What the command handlers are told of the server they run in: the policy they apply
/// (registration, passwords in clear, the line limit) and the facts INFO reports. The daemon's
/// configuration makes it; the engine never reads options itself.
package struct EngineSettings: Sendable, Equatable {
  package var maxLine: Int
  package var registration: Registration
  /// Whether a password may cross a network in clear (`--allow-plaintext-auth`).
  package var allowPlaintextAuth: Bool
  /// The TLS port to send a client to, 0 where it is chosen at start; nil without TLS.
  package var tlsPort: UInt16?
  /// The I/O backend's name, for INFO.
  package var io: String
  package var loops: Int
  package var maxClients: Int
  package var fsync: FsyncPolicy
  /// Order lines one address may place a second (`--order-rate`), with ten seconds' worth at
  /// once; 0 for no limit.
  package var orderRate: Int
  /// Connections one address may hold (`--max-clients-per-address`); 0 for no limit.
  package var maxClientsPerAddress: Int
  /// What each password hash made or checked for a missing name costs (`--password-memory`,
  /// `--password-passes`).
  package var passwordCost: PasswordCost

  package init(
    maxLine: Int, registration: Registration, allowPlaintextAuth: Bool, tlsPort: UInt16?, io: String, loops: Int,
    maxClients: Int, fsync: FsyncPolicy, orderRate: Int = 0, maxClientsPerAddress: Int = 0,
    passwordCost: PasswordCost = .interactive
  ) {
    self.maxLine = maxLine
    self.registration = registration
    self.allowPlaintextAuth = allowPlaintextAuth
    self.tlsPort = tlsPort
    self.io = io
    self.loops = loops
    self.maxClients = maxClients
    self.fsync = fsync
    self.orderRate = orderRate
    self.maxClientsPerAddress = maxClientsPerAddress
    self.passwordCost = passwordCost
  }
}

import StockroomSecurity
import Synchronization

/// Password hashes for test accounts, made once per name per test run, at the least cost the
/// server accepts (`PasswordCost.least`), as test servers hash: at the default cost every LOGIN
/// costs a tenth of a second and 64 MiB, and the suite makes thousands. The default cost's own
/// hashes are proven by `PasswordHashTests` and `PasswordCostTests`.
enum TestAccounts {
  private static let hashes = Mutex<[String: String]>([:])

  /// Every test account's password, derived from its name.
  static func password(for user: String) -> String { "pw-\(user)-stockroom" }

  static func hash(for name: String) throws -> String {
    if let hash = hashes.withLock({ $0[name] }) { return hash }
    let hash = try PasswordHash.make(Password(password(for: name)), cost: .least)
    hashes.withLock { $0[name] = hash }
    return hash
  }
}

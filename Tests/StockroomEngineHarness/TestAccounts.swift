import StockroomSecurity
import Synchronization

/// Password hashes for test accounts, made once per name per test run: an Argon2id hash costs a
/// tenth of a second and 64 MiB, and the same few names are made on hundreds of test servers.
enum TestAccounts {
  private static let hashes = Mutex<[String: String]>([:])

  /// Every test account's password, derived from its name.
  static func password(for user: String) -> String { "pw-\(user)-stockroom" }

  static func hash(for name: String) throws -> String {
    if let hash = hashes.withLock({ $0[name] }) { return hash }
    let hash = try PasswordHash.make(Password(password(for: name)))
    hashes.withLock { $0[name] = hash }
    return hash
  }
}

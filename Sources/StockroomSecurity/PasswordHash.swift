import CSodium
import Synchronization

/// Argon2id password hashes in libsodium's string form (`$argon2id$v=19$m=65536,t=2,p=1$...`),
/// which carries its own salt and cost, so a hash made with today's limits still verifies after
/// they are raised.
///
/// Making or checking a hash at the default cost (`PasswordCost.interactive`) takes about a tenth
/// of a second and 64 MiB on purpose: run it on the server's credential pool, never on an event
/// loop.
public enum PasswordHash {
  /// Hashes `password` with a fresh random salt, at `cost`. Refuses a password the rules refuse
  /// (see `Password.check`), so no hash of a too-short password is ever stored.
  public static func make(_ password: Password, cost: PasswordCost = .interactive) throws(PasswordError) -> String {
    try password.check()
    Sodium.ready()
    var text = [CChar](repeating: 0, count: crypto_pwhash_strbytes())
    let result = password.withUnsafeBytes { bytes in
      bytes.withMemoryRebound(to: CChar.self) { characters in
        crypto_pwhash_str_alg(
          &text, characters.baseAddress!, UInt64(characters.count), cost.operations, cost.memoryBytes,
          crypto_pwhash_alg_argon2id13())
      }
    }
    guard result == 0 else { throw .outOfMemory }
    return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Whether `password` is the one `hash` was made from. False for a hash that is not one
  /// (a damaged row), never a crash. Takes as long as making a hash with the hash's own limits.
  public static func verify(_ hash: String, _ password: Password) -> Bool {
    Sodium.ready()
    // libsodium reads the hash up to its NUL; one longer than any it makes is not one of ours.
    guard hash.utf8.count < crypto_pwhash_strbytes() else { return false }
    return password.withUnsafeBytes { bytes in
      bytes.withMemoryRebound(to: CChar.self) { characters in
        crypto_pwhash_str_verify(hash, characters.baseAddress!, UInt64(characters.count)) == 0
      }
    }
  }

  /// A hash of 32 random bytes nobody ever sees, made at `cost` on first use and kept for the
  /// process's life. A login for a name with no account verifies against it, so a wrong name
  /// takes as long as a wrong password and the time of a reply does not tell which names exist.
  /// Making it costs one hash, which the server pays as it starts (`Server.start`), not at the
  /// first such login.
  public static func decoy(_ cost: PasswordCost = .interactive) -> String {
    if let made = decoys.withLock({ $0[cost] }) { return made }
    let made = makeDecoy(cost)
    // Two threads may both make one; the first kept is the one every later check uses.
    return decoys.withLock { decoys in
      if let first = decoys[cost] { return first }
      decoys[cost] = made
      return made
    }
  }

  /// One decoy per cost a process hashes at (in practice one; two in tests).
  private static let decoys = Mutex<[PasswordCost: String]>([:])

  private static func makeDecoy(_ cost: PasswordCost) -> String {
    Sodium.ready()
    var bytes = [UInt8](repeating: 0, count: 32)
    bytes.withUnsafeMutableBytes { randombytes_buf($0.baseAddress!, $0.count) }
    let secret = Password(bytes: bytes)
    bytes.withUnsafeMutableBytes { sodium_memzero($0.baseAddress!, $0.count) }
    do {
      return try make(secret, cost: cost)
    } catch {
      // Without it a missing name would answer faster than a wrong password, telling which names
      // exist; better to stop than to serve logins that leak that.
      fatalError("cannot make the decoy password hash: \(error)")
    }
  }
}

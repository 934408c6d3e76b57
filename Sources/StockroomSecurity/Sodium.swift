import CSodium

/// libsodium's one-time set-up. `sodium_init` picks the fastest implementations for this CPU
/// and opens the random source; every call into libsodium that needs either goes through
/// `ready()` first.
enum Sodium {
  /// A static `let` is initialized once, lazily, under the runtime's own lock: concurrent first
  /// calls wait for the one that runs it.
  private static let initialized: Void = {
    // 0: done now; 1: already done (by another library in the process); -1: cannot work.
    guard sodium_init() >= 0 else {
      fatalError(
        "libsodium cannot start (sodium_init failed): without it no password can be hashed or checked. "
          + "Check that /dev/urandom can be read and that libsodium23 is installed intact")
    }
  }()

  static func ready() {
    Sodium.initialized
  }
}
